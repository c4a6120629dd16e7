import { describe, expect, it } from 'vitest';
import { convertValue, MAX_LIST_LENGTH, splitList } from './convert.js';

describe('splitList (a list as text, from a URL)', () => {
  it('splits on commas and drops the spaces around each value', () => {
    expect(splitList('US,DE')).toEqual(['US', 'DE']);
    expect(splitList(' US , New York ,  ')).toEqual(['US', 'New York', '']);
    expect(splitList('one')).toEqual(['one']);
  });

  it('takes the character after a backslash as plain text', () => {
    expect(splitList('a\\,b,c')).toEqual(['a,b', 'c']);
    expect(splitList('back\\\\slash,x')).toEqual(['back\\slash', 'x']);
    expect(splitList('\\ padded\\ ,x')).toEqual([' padded ', 'x']);
    expect(splitList('\\[not json]')).toEqual(['[not json]']);
    // A backslash at the very end has nothing to escape: it is kept.
    expect(splitList('end\\')).toEqual(['end\\']);
  });
});

describe('convertValue', () => {
  it('converts each scalar type', () => {
    expect(convertValue('string', 5)).toEqual({ ok: true, value: '5' });
    expect(convertValue('number', ' 4.5 ')).toEqual({ ok: true, value: 4.5 });
    expect(convertValue('boolean', 'FALSE')).toEqual({ ok: true, value: false });
    expect(convertValue('date', '2025-01-01 10:00')).toEqual({ ok: true, value: '2025-01-01T10:00:00.000Z' });
    expect(convertValue('string', ['a'])).toEqual({ ok: false, problem: 'must be a string' });
    expect(convertValue('number', [1])).toEqual({ ok: false, problem: 'must be a number' });
  });

  it('takes a list as a JSON array, a JSON array in text, comma-separated text, or one value', () => {
    expect(convertValue('string[]', ['US', 'DE'])).toEqual({ ok: true, value: ['US', 'DE'] });
    expect(convertValue('string[]', ' ["a,b", "c"]')).toEqual({ ok: true, value: ['a,b', 'c'] });
    expect(convertValue('number[]', '1, 2.5,-3')).toEqual({ ok: true, value: [1, 2.5, -3] });
    expect(convertValue('number[]', 7)).toEqual({ ok: true, value: [7] });
    expect(convertValue('boolean[]', 'true,0')).toEqual({ ok: true, value: [true, false] });
    expect(convertValue('date[]', ['2025-01-01', '2025-01-02T10:00:00+02:00'])).toEqual({ ok: true, value: ['2025-01-01', '2025-01-02T08:00:00.000Z'] });
    expect(convertValue('string[]', [])).toEqual({ ok: true, value: [] });
  });

  it.each([
    ['number[]', '1,ten', 'item 2 must be a number'],
    ['number[]', ['1', null], 'has no value at item 2 (a list cannot hold null)'],
    ['date[]', '2025-01-01,2025-02-30', 'item 2 must be a date'],
    ['boolean[]', ['yes'], 'item 1 must be a boolean'],
    ['string[]', [{ $ne: null }], 'item 1 must be a string'],
    ['string[]', [['nested']], 'item 1 must be a string'],
    ['string[]', '[not json', 'must be a list: a JSON array, or values separated by commas'],
    ['number[]', '[{"a": 1}]', 'item 1 must be a number'],
  ] as const)('refuses %s = %j', (type, raw, problem) => {
    expect(convertValue(type, raw)).toEqual({ ok: false, problem: expect.stringContaining(problem) });
  });

  it('converts each element by the element type, as a scalar of that type would be', () => {
    expect(convertValue('string[]', '[1, true] ')).toEqual({ ok: true, value: ['1', 'true'] });
    expect(convertValue('string[]', '{"a": 1}')).toEqual({ ok: true, value: ['{"a": 1}'] });
  });

  it(`caps a list at ${MAX_LIST_LENGTH} values`, () => {
    expect(convertValue('number[]', Array.from({ length: MAX_LIST_LENGTH }, (_, i) => i))).toMatchObject({ ok: true });
    expect(convertValue('number[]', Array.from({ length: MAX_LIST_LENGTH + 1 }, (_, i) => i))).toEqual({
      ok: false,
      problem: `has ${MAX_LIST_LENGTH + 1} values; a list holds at most ${MAX_LIST_LENGTH}`,
    });
    expect(convertValue('string[]', 'x,'.repeat(MAX_LIST_LENGTH))).toMatchObject({ ok: false });
  });
});
