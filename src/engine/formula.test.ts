import { describe, expect, it } from 'vitest';
import { compileFormula } from './formula.js';
import { formatValue } from './format.js';

describe('compileFormula', () => {
  it('splits prefix and suffix around the braces', () => {
    const percent = compileFormula('{val * 100}%');
    expect([percent.prefix, percent.suffix]).toEqual(['', '%']);
    expect(percent.apply(0.256)).toBe(25.6);

    const thousands = compileFormula('${val / 1000}k');
    expect([thousands.prefix, thousands.suffix]).toEqual(['$', 'k']);
    expect(thousands.apply(12_345)).toBe(12.35); // 12.345 rounded to 2 decimals, half away from zero

    expect(compileFormula('£{val}').apply(3)).toBe(3);
  });

  it('follows precedence, parentheses, unary minus and remainder', () => {
    expect(compileFormula('{1 + 2 * 3}').apply(0)).toBe(7);
    expect(compileFormula('{(1 + 2) * 3}').apply(0)).toBe(9);
    expect(compileFormula('{-val + 10}').apply(4)).toBe(6);
    expect(compileFormula('{val % 7}').apply(23)).toBe(2);
    expect(compileFormula('{val / 4 / 2}').apply(16)).toBe(2);
    expect(compileFormula('{2 - -val}').apply(3)).toBe(5);
    expect(compileFormula('{1.5e2 + .5}').apply(0)).toBe(150.5);
  });

  it('offers round/floor/ceil/abs/min/max/pow/sqrt, case-insensitive and with Math.', () => {
    expect(compileFormula('{round(val / 3, 1)}').apply(10)).toBe(3.3);
    expect(compileFormula('{ROUND(val)}').apply(2.5)).toBe(3);
    expect(compileFormula('{Math.floor(val)}').apply(2.9)).toBe(2);
    expect(compileFormula('{ceil(val)}').apply(2.1)).toBe(3);
    expect(compileFormula('{abs(val)}').apply(-4)).toBe(4);
    expect(compileFormula('{max(val, 10)}').apply(4)).toBe(10);
    expect(compileFormula('{min(val, 10, 2)}').apply(4)).toBe(2);
    expect(compileFormula('{pow(val, 2)}').apply(3)).toBe(9);
    expect(compileFormula('{sqrt(val)}').apply(16)).toBe(4);
  });

  it('lets round(x, n) and toFixed(n) set the decimals', () => {
    const fixed = compileFormula('{(val / 3).toFixed(3)} m');
    expect(fixed.decimals).toBe(3);
    expect(fixed.fixedDecimals).toBe(true);
    expect(fixed.apply(1)).toBe(0.333);
    expect(compileFormula('{round(val, 0)}').decimals).toBe(0);
    // 1.005 rounds up at 2 decimals (decimal rounding, not binary).
    expect(compileFormula('{val}').apply(1.005)).toBe(1.01);
    expect(compileFormula('{val.toFixed(1)}').apply(-2.25)).toBe(-2.3);
  });

  it('gives null for results that are not finite', () => {
    expect(compileFormula('{1 / val}').apply(0)).toBeNull();
  });

  it('rejects anything that is not an arithmetic expression', () => {
    for (const bad of ['val * 2', '{val +}', '{process.exit()}', '{constructor}', '{val; 1}', '{"a"}', '{val[0]}', '{round()}', '{(val}']) {
      expect(() => compileFormula(bad)).toThrow(/formula/);
    }
  });
});

describe('formatValue', () => {
  it('groups digits, keeps at most 2 decimals and wraps in prefix and suffix', () => {
    expect(formatValue(1234567.891, null)).toBe('1,234,567.89');
    expect(formatValue(12, compileFormula('${val / 1000}k'))).toBe('$12k');
    expect(formatValue(0.5, compileFormula('{val.toFixed(2)}%'))).toBe('0.50%');
    expect(formatValue(null, null)).toBe('-');
  });
});
