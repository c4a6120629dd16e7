import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';

/**
 * The one font pictures are drawn with: Inter, from the `@fontsource/inter` package (WOFF2 files
 * Skia reads), registered under its own family name. No system font is ever used, so a picture has
 * the same pixels on every machine, including one with no fonts installed.
 */
export const FONT_FAMILY = 'Plotline Sans';

const WEIGHTS = [400, 600, 700] as const;
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'greek'] as const;

let registered = false;

/** Registers the font files once per process (Skia's font registry is itself process-wide). */
export function ensureFonts(): void {
  if (registered) return;
  const require = createRequire(import.meta.url);
  let count = 0;
  for (const weight of WEIGHTS) {
    for (const subset of SUBSETS) {
      const file = require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff2`);
      if (GlobalFonts.registerFromPath(file, FONT_FAMILY)) count += 1;
    }
  }
  if (count === 0) throw new Error('The picture font (@fontsource/inter) could not be loaded');
  registered = true;
}

/** A canvas font string in the pictures' family. */
export function font(size: number, weight: 400 | 600 | 700 = 400): string {
  return `${weight} ${size}px "${FONT_FAMILY}"`;
}
