/**
 * Default colours: dataset i takes palette[i] unless it sets `datasetColor`; pie-like charts
 * colour each slice from `fillColor` (when it is a list) and then the palette.
 */
export const PALETTE = [
  '#4E79A7',
  '#F28E2B',
  '#E15759',
  '#76B7B2',
  '#59A14F',
  '#EDC948',
  '#B07AA1',
  '#FF9DA7',
  '#9C755F',
  '#BAB0AC',
] as const;

export function paletteColor(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export function datasetColor(color: string | null | undefined, index: number): string {
  return nonEmpty(color) ? color : paletteColor(index);
}

/** One colour per slice: the configured list first, then the palette. */
export function sliceColors(fillColor: string | string[] | null | undefined, count: number): string[] {
  const configured = Array.isArray(fillColor) ? fillColor : [];
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const c = configured[i];
    out.push(nonEmpty(c) ? c : paletteColor(i));
  }
  return out;
}

/** A single fill colour (first entry of a list), falling back to the dataset colour. */
export function singleFill(fillColor: string | string[] | null | undefined, fallback: string): string {
  if (Array.isArray(fillColor)) return nonEmpty(fillColor[0]) ? fillColor[0] : fallback;
  return nonEmpty(fillColor) ? fillColor : fallback;
}
