/**
 * Display text for single values (KPI values, goals): en-US digit grouping, at most 2 decimals,
 * or exactly the decimals a formula fixed, wrapped in the formula's prefix and suffix.
 */
import type { Formula } from './formula.js';

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(minDecimals: number, maxDecimals: number): Intl.NumberFormat {
  const key = `${minDecimals}:${maxDecimals}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals });
    formatters.set(key, f);
  }
  return f;
}

const EMPTY_VALUE_TEXT = '-';

export function formatValue(value: number | null, formula: Formula | null): string {
  if (value === null || !Number.isFinite(value)) return EMPTY_VALUE_TEXT;
  if (!formula) return formatter(0, 2).format(value);
  const digits = formula.fixedDecimals
    ? formatter(formula.decimals, formula.decimals).format(value)
    : formatter(0, formula.decimals).format(value);
  return `${formula.prefix}${digits}${formula.suffix}`;
}
