import { describe, expect, it } from 'vitest';
import { compileConditions, resolveConditions } from './conditions.js';
import type { ChartCondition } from './types.js';
import { ZoneClock } from './zone-clock.js';

const utc = ZoneClock.of('UTC');
const paris = ZoneClock.of('Europe/Paris');

const rows = [
  { id: 1, n: 10, s: 'apple', b: true, d: new Date('2025-03-01T10:00:00Z'), iso: '2025-03-01T10:00:00Z', num: '10.50', tags: ['x', 'y'] },
  { id: 2, n: 2, s: 'banana', b: false, d: new Date('2025-03-02T00:00:00Z'), iso: '2025-03-02', num: '9', tags: ['y'] },
  { id: 3, n: 100, s: 'Apple pie', b: 'true', d: new Date('2025-02-28T23:59:59Z'), iso: '2025-02-28T23:59:59Z', num: 'n/a', tags: [] },
  { id: 4, n: null, s: null, b: null, d: null, iso: null, num: null },
];

function ids(conditions: ChartCondition[], clock = utc, variables?: Array<{ name: string; value: unknown }>): number[] {
  const keep = compileConditions(conditions, clock, variables);
  return rows.filter((r) => keep(r)).map((r) => r.id);
}

const c = (field: string, operator: string, value?: unknown, type?: string): ChartCondition =>
  type === undefined ? { field: `root[].${field}`, operator, value } : { field: `root[].${field}`, operator, value, type };

describe('numbers compare as numbers', () => {
  it.each([
    ['is', 10, [1]],
    ['isNot', 10, [2, 3, 4]],
    ['greaterThan', 9, [1, 3]],
    ['greaterOrEqual', 10, [1, 3]],
    ['lessThan', 10, [2]],
    ['lessOrEqual', 10, [1, 2]],
  ])('%s %s', (operator, value, expected) => {
    expect(ids([c('n', operator, value)])).toEqual(expected);
    // The condition value usually arrives as text from the UI: "9" is still nine, not "9" > "10".
    expect(ids([c('n', operator, String(value))])).toEqual(expected);
  });

  it('numeric strings in rows compare as numbers against a numeric value', () => {
    // "10.50" is 10.5, "9" is 9, "n/a" is not comparable with a number.
    expect(ids([c('num', 'greaterThan', '10')])).toEqual([1]);
    expect(ids([c('num', 'is', 10.5)])).toEqual([1]);
    expect(ids([c('num', 'lessOrEqual', 9)])).toEqual([2]);
    expect(ids([c('num', 'isNot', 9)])).toEqual([1, 3, 4]);
  });

  it('a number against text is not comparable', () => {
    expect(ids([c('n', 'is', 'ten')])).toEqual([]);
    expect(ids([c('n', 'greaterThan', 'ten')])).toEqual([]);
    expect(ids([c('n', 'isNot', 'ten')])).toEqual([1, 2, 3, 4]);
  });

  it('contains on numbers is a substring test of their text', () => {
    expect(ids([c('n', 'contains', '0')])).toEqual([1, 3]);
    expect(ids([c('n', 'notContains', '0')])).toEqual([2, 4]);
  });
});

describe('strings compare as strings', () => {
  it.each([
    ['is', 'apple', [1]],
    ['isNot', 'apple', [2, 3, 4]],
    ['contains', 'pple', [1, 3]],
    ['notContains', 'pple', [2, 4]],
    // Code-unit order: "Apple pie" < "apple" < "banana".
    ['greaterThan', 'apple', [2]],
    ['greaterOrEqual', 'apple', [1, 2]],
    ['lessThan', 'apple', [3]],
    ['lessOrEqual', 'apple', [1, 3]],
  ])('%s %s', (operator, value, expected) => {
    expect(ids([c('s', operator, value)])).toEqual(expected);
  });

  it('contains is case-sensitive', () => {
    expect(ids([c('s', 'contains', 'Apple')])).toEqual([3]);
  });
});

describe('dates compare as dates, at the precision of the condition value', () => {
  it('a date-only value is the whole local day', () => {
    expect(ids([c('d', 'is', '2025-03-01')])).toEqual([1]);
    expect(ids([c('d', 'isNot', '2025-03-01')])).toEqual([2, 3, 4]);
    expect(ids([c('d', 'greaterThan', '2025-03-01')])).toEqual([2]);
    expect(ids([c('d', 'greaterOrEqual', '2025-03-01')])).toEqual([1, 2]);
    expect(ids([c('d', 'lessThan', '2025-03-01')])).toEqual([3]);
    expect(ids([c('d', 'lessOrEqual', '2025-03-01')])).toEqual([1, 3]);
  });

  it('the day is taken in the chart zone', () => {
    // In Paris, 2025-02-28T23:59:59Z is already 2025-03-01 00:59:59; 2025-03-02T00:00Z is 01:00 on the 2nd.
    expect(ids([c('d', 'is', '2025-03-01')], paris)).toEqual([1, 3]);
  });

  it('a full timestamp is one instant; a month value is the whole month', () => {
    expect(ids([c('d', 'is', '2025-03-01T10:00:00Z')])).toEqual([1]);
    expect(ids([c('d', 'greaterThan', '2025-03-01T10:00:00Z')])).toEqual([2]);
    expect(ids([c('d', 'is', '2025-03')])).toEqual([1, 2]);
  });

  it('ISO strings in rows compare as dates against a date value', () => {
    expect(ids([c('iso', 'greaterOrEqual', '2025-03-01')])).toEqual([1, 2]);
    expect(ids([c('iso', 'lessThan', '2025-03-01')])).toEqual([3]);
  });

  it('epoch numbers in rows compare as dates against a date value', () => {
    const keep = compileConditions([c('t', 'is', '2025-03-01')], utc);
    expect(keep({ t: 1_740_823_200 })).toBe(true); // 2025-03-01T10:00:00Z in seconds
    expect(keep({ t: 1_740_823_200_000 })).toBe(true); // same in milliseconds
    expect(keep({ t: 1_740_960_000 })).toBe(false); // 2025-03-03T00:00:00Z
  });
});

describe('booleans compare with true/false', () => {
  it('is / isNot accept booleans and their text', () => {
    expect(ids([c('b', 'is', 'true')])).toEqual([1, 3]);
    expect(ids([c('b', 'is', true)])).toEqual([1, 3]);
    expect(ids([c('b', 'is', 'false')])).toEqual([2]);
    expect(ids([c('b', 'isNot', 'true')])).toEqual([2, 4]);
  });

  it('booleans have no order', () => {
    expect(ids([c('b', 'greaterThan', 'false')])).toEqual([3]); // only the string "true" compares as text
  });
});

describe('null checks', () => {
  it('isNull / isNotNull, and their inversion by value false', () => {
    expect(ids([c('n', 'isNull')])).toEqual([4]);
    expect(ids([c('n', 'isNotNull')])).toEqual([1, 2, 3]);
    expect(ids([c('n', 'isNull', 'false')])).toEqual([1, 2, 3]);
    expect(ids([c('missing', 'isNull')])).toEqual([1, 2, 3, 4]);
  });

  it('missing values satisfy only the negative operators', () => {
    expect(ids([c('missing', 'is', 'x')])).toEqual([]);
    expect(ids([c('missing', 'isNot', 'x')])).toEqual([1, 2, 3, 4]);
    expect(ids([c('missing', 'lessThan', 5)])).toEqual([]);
    expect(ids([c('missing', 'notContains', 'x')])).toEqual([1, 2, 3, 4]);
  });
});

describe('forced types', () => {
  it('type string compares numbers as text', () => {
    // As text "10", "100" and "2" all sort before "9"; as numbers only 2 would.
    expect(ids([c('n', 'lessThan', '9', 'string')])).toEqual([1, 2, 3]);
  });

  it('type number reads numeric text and ignores the rest', () => {
    expect(ids([c('num', 'greaterOrEqual', '9', 'number')])).toEqual([1, 2]);
  });

  it('type date reads epoch values in conditions', () => {
    // 1740787200 is 2025-03-01T00:00:00Z.
    expect(ids([c('d', 'greaterOrEqual', 1_740_787_200, 'date')])).toEqual([1, 2]);
  });
});

describe('arrays, lists and combinations', () => {
  it('contains on an array field tests membership', () => {
    expect(ids([c('tags', 'contains', 'x')])).toEqual([1]);
    expect(ids([c('tags', 'notContains', 'x')])).toEqual([2, 3, 4]);
  });

  it('a path through an array matches when any element does (all, for negative operators)', () => {
    expect(ids([c('tags[]', 'is', 'y')])).toEqual([1, 2]);
    expect(ids([c('tags[]', 'isNot', 'y')])).toEqual([3, 4]);
  });

  it('a list value means any of / none of', () => {
    expect(ids([c('s', 'is', ['apple', 'banana'])])).toEqual([1, 2]);
    expect(ids([c('s', 'isNot', ['apple', 'banana'])])).toEqual([3, 4]);
  });

  it('conditions combine with AND', () => {
    expect(ids([c('n', 'greaterThan', 5), c('s', 'contains', 'pple')])).toEqual([1, 3]);
    expect(ids([c('n', 'greaterThan', 5), c('b', 'is', false)])).toEqual([]);
  });
});

describe('resolution', () => {
  it('ignores conditions with an empty value', () => {
    expect(ids([c('s', 'is', ''), c('n', 'is', null)])).toEqual([1, 2, 3, 4]);
  });

  it('substitutes variables and skips conditions whose variable has no value', () => {
    expect(ids([c('s', 'is', '{{fruit}}')], utc, [{ name: 'fruit', value: 'banana' }])).toEqual([2]);
    expect(ids([c('s', 'contains', 'p{{rest}}')], utc, [{ name: 'rest', value: 'ple' }])).toEqual([1, 3]);
    expect(ids([c('s', 'is', '{{fruit}}')], utc, [])).toEqual([1, 2, 3, 4]);
  });

  it('rejects unknown operators and types with the condition path', () => {
    expect(() => resolveConditions([{ field: 'a', operator: 'like', value: 1 }], [])).toThrow(/conditions\[0\]\.operator/);
    expect(() => resolveConditions([{ field: 'a', operator: 'is', value: 1, type: 'money' }], [])).toThrow(/conditions\[0\]\.type/);
  });
});
