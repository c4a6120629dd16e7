import { describe, expect, it } from 'vitest';
import { findPlaceholders, placeholderAt } from './placeholders.js';
import { compileSql } from './sql.js';
import { compileJsonBody, compileRoute } from './api.js';
import type { ResolvedVariables } from '../types.js';

const vars: ResolvedVariables = { values: new Map([['a', { name: 'a', value: 'x', type: 'string' }]]) } as unknown as ResolvedVariables;

/** Texts that made the old backtracking regex take minutes; 100 KB each. */
const SIZE = 100_000;
const ADVERSARIAL: Record<string, string> = {
  'open braces then spaces': '{{' + ' '.repeat(SIZE),
  'open braces then spaces then a lone brace': '{{' + ' '.repeat(SIZE) + '}',
  'many opens': '{{ '.repeat(SIZE / 3),
  'opens with a name and no close': '{{ a '.repeat(SIZE / 5),
  'tabs and newlines': '{{' + '\t\n '.repeat(SIZE / 3),
  'opens inside a string literal': "select '{{" + ' '.repeat(SIZE) + "'",
  'many literals with placeholders': "'{{a}}' ".repeat(SIZE / 8),
  'typed literals after long whitespace': ("date" + ' '.repeat(1000) + "'{{a}}' ").repeat(SIZE / 1010),
};

describe('placeholder scanning', () => {
  it('finds placeholders the way the documented syntax says', () => {
    expect(findPlaceholders('a {{x}} b {{ y z }} {{}} {{ }} {{{w}} {{v}')).toEqual([
      { name: 'x', start: 2, end: 7 },
      { name: 'y z', start: 10, end: 19 },
      { name: 'w', start: 32, end: 37 },
    ]);
    expect(placeholderAt('{{a}}}', 0)).toEqual({ name: 'a', start: 0, end: 5 });
    expect(placeholderAt('{{a}x}}', 0)).toBeUndefined();
    expect(placeholderAt('x{{a}}', 0)).toBeUndefined();
  });

  // A linear scan takes a few milliseconds; the old scanner took 65 s for 5,000 spaces and hours for
  // 100 KB. The bound leaves room for a loaded machine and still catches a super-linear scan.
  for (const [name, text] of Object.entries(ADVERSARIAL)) {
    it(`handles 100 KB of "${name}" in linear time`, () => {
      const started = performance.now();
      findPlaceholders(text);
      try {
        compileSql(text, 'postgres', vars);
      } catch {
        // Unterminated strings and unknown names are refused; only the time matters here.
      }
      try {
        compileSql(text, 'mysql', vars);
      } catch {
        // as above
      }
      try {
        compileRoute(text, vars);
      } catch {
        // as above
      }
      try {
        compileJsonBody(text, vars);
      } catch {
        // as above
      }
      expect(performance.now() - started).toBeLessThan(5_000);
    });
  }
});
