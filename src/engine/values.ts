/**
 * How row values are read as numbers, category labels and distinct keys: one documented way,
 * the same for every source.
 */

/**
 * Numbers, numeric strings (Postgres `numeric` and MySQL `DECIMAL` arrive as strings) and bigints
 * are numbers; everything else (booleans, dates, blanks, objects) is NaN.
 */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value - value === 0 ? value : NaN;
  if (typeof value === 'string') return parseNumber(value);
  if (typeof value === 'bigint') return Number(value);
  return NaN;
}

export function parseNumber(s: string): number {
  if (s.length === 0) return NaN;
  const n = +s;
  if (n - n !== 0) return NaN;
  // `+" "` is 0: a zero only counts when the text holds a zero digit.
  if (n === 0 && s.indexOf('0') === -1) return NaN;
  return n;
}

/** Label of a category value; null for null/undefined (such rows are left out of the chart). */
export function categoryLabel(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return JSON.stringify(value);
}

/** Key for `count_unique`: values of different types stay distinct (1 and "1" are two values). */
export function distinctKey(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return `\u0000date:${value.getTime()}`;
  return `\u0000json:${JSON.stringify(value)}`;
}

/**
 * Rounds a sum to the precision its terms allow: 15 significant digits of Σ|terms|, the scale of
 * the error binary inputs carry (each term is off by up to half an ulp). Measuring against the
 * result instead would keep noise when terms cancel (434.10 − 515.91 → −81.8099999999999).
 */
export function cleanSum(sum: number, sumOfMagnitudes: number): number {
  if (sum === 0) return 0;
  if (!Number.isFinite(sum) || !(sumOfMagnitudes > 0)) return cleanNumber(sum);
  const decimals = 15 - Math.ceil(Math.log10(sumOfMagnitudes));
  if (decimals < 0 || decimals > 15) return cleanNumber(sum);
  return roundTo(sum, decimals);
}

/** Drops binary floating-point noise (1.1 * 3 → 3.3) from a computed value; integers are kept as is. */
export function cleanNumber(n: number): number {
  if (n === 0) return 0; // never -0 in JSON-bound output
  if (Number.isInteger(n) || !Number.isFinite(n)) return n;
  return Number(n.toPrecision(15));
}

const NUMERIC_LABEL = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** Order of category labels: numbers by value before text, text by code units. */
export function compareLabels(a: string, b: string): number {
  const an = NUMERIC_LABEL.test(a);
  const bn = NUMERIC_LABEL.test(b);
  if (an && bn) {
    const d = Number(a) - Number(b);
    if (d !== 0) return d;
  } else if (an !== bn) {
    return an ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Half away from zero at `decimals` places, done on the decimal text so 1.005 rounds to 1.01
 * (as SQL ROUND and spreadsheet ROUND do), not to 1.00 as binary rounding would.
 */
export function roundTo(n: number, decimals: number): number {
  if (!Number.isFinite(n)) return n;
  const d = Math.max(0, Math.min(15, Math.trunc(decimals)));
  const sign = n < 0 ? -1 : 1;
  const abs = Math.abs(n);
  const text = String(abs);
  // Exponent notation (tiny or huge values) cannot take the text shift; scale instead.
  const shifted = text.includes('e') ? Math.round(abs * 10 ** d) : Math.round(Number(`${text}e${d}`));
  const back = String(shifted);
  const result = sign * (back.includes('e') ? shifted / 10 ** d : Number(`${back}e-${d}`));
  return result === 0 ? 0 : result;
}
