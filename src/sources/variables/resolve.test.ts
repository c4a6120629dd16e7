import { describe, expect, it } from 'vitest';
import { resolveVariables, variablesWithoutValue, variableValues } from './resolve.js';

describe('resolveVariables', () => {
  const bindings = [
    { name: 'country', type: 'string' as const, default_value: 'US' },
    { name: 'limit', type: 'number' as const, default_value: '10' },
    { name: 'paid', type: 'boolean' as const, default_value: null },
    { name: 'from', type: 'date' as const, default_value: '2025-01-01' },
  ];

  it('takes runtime over chart-config over binding default', () => {
    const vars = resolveVariables({
      bindings,
      runtime: { country: 'DE' },
      configured: [
        { name: 'country', value: 'FR' },
        { name: 'limit', value: '25' },
      ],
    });
    expect(variableValues(vars)).toEqual({ country: 'DE', limit: 25, paid: null, from: '2025-01-01' });
    expect(vars.values.get('country')?.origin).toBe('runtime');
    expect(vars.values.get('limit')?.origin).toBe('configured');
    expect(vars.values.get('from')?.origin).toBe('default');
    expect(vars.values.get('paid')?.origin).toBe('unset');
  });

  it('treats null, undefined and "" as no value, falling back', () => {
    const vars = resolveVariables({ bindings, runtime: { country: '', limit: null }, configured: { country: undefined } });
    expect(variableValues(vars)).toMatchObject({ country: 'US', limit: 10 });
  });

  it('names a missing required variable in a 400', () => {
    expect(() => resolveVariables({ bindings: [{ name: 'team', type: 'string', required: true }] })).toThrowError(
      expect.objectContaining({ statusCode: 400, code: 'VARIABLE_REQUIRED', message: expect.stringContaining('"team"') }),
    );
  });

  it('checks and converts each type', () => {
    const vars = resolveVariables({
      bindings,
      runtime: { limit: ' 42.5 ', paid: 'TRUE', from: '2025-03-04 10:30' },
    });
    expect(variableValues(vars)).toMatchObject({ limit: 42.5, paid: true, from: '2025-03-04T10:30:00.000Z' });
    expect(resolveVariables({ bindings, runtime: { paid: 0 } }).values.get('paid')?.value).toBe(false);
    expect(resolveVariables({ bindings, runtime: { from: '2025-01-01T10:00:00+02:00' } }).values.get('from')?.value).toBe(
      '2025-01-01T08:00:00.000Z',
    );
  });

  it.each([
    ['limit', 'ten', 'must be a number'],
    ['limit', '1; DROP TABLE t', 'must be a number'],
    ['paid', 'yes', 'must be a boolean'],
    ['from', '2025-02-30', 'must be a date'],
    ['from', 'tomorrow', 'must be a date'],
    ['country', { $ne: null }, 'must be a string'],
  ])('rejects %s = %j', (name, value, message) => {
    expect(() => resolveVariables({ bindings, runtime: { [name]: value } })).toThrowError(
      expect.objectContaining({ code: 'VARIABLE_INVALID', message: expect.stringContaining(message) }),
    );
  });

  it('keeps values without a binding as strings', () => {
    const vars = resolveVariables({ runtime: { q: 5 }, configured: { other: true } });
    expect(variableValues(vars)).toEqual({ other: 'true', q: '5' });
  });

  it('keeps an array without a binding as a list of strings', () => {
    const vars = resolveVariables({ runtime: { ids: [1, 'a'] } });
    expect(vars.values.get('ids')).toMatchObject({ type: 'string[]', value: ['1', 'a'] });
  });

  describe('list types', () => {
    const listBindings = [
      { name: 'countries', type: 'string[]' as const, default_value: '["US"]' },
      { name: 'ids', type: 'number[]' as const },
      { name: 'needed', type: 'date[]' as const, required: true },
    ];

    it('converts a JSON array, comma-separated text (a URL) and a stored default', () => {
      const vars = resolveVariables({ bindings: listBindings, runtime: { ids: '1,2', needed: ['2025-01-01'] } });
      expect(variableValues(vars)).toEqual({ countries: ['US'], ids: [1, 2], needed: ['2025-01-01'] });
      expect(vars.values.get('countries')?.origin).toBe('default');
    });

    it('treats an empty list as no value: it falls back, and a required one is missing', () => {
      const vars = resolveVariables({ bindings: listBindings, runtime: { countries: [], ids: '[]', needed: '2025-01-01' } });
      expect(variableValues(vars)).toMatchObject({ countries: ['US'], ids: null });
      expect(() => resolveVariables({ bindings: listBindings, runtime: { needed: [] } })).toThrowError(
        expect.objectContaining({ statusCode: 400, code: 'VARIABLE_REQUIRED', message: expect.stringContaining('"needed"') }),
      );
    });

    it('names the variable of a list that does not fit', () => {
      expect(() => resolveVariables({ bindings: listBindings, runtime: { ids: [1, 'two'], needed: '2025-01-01' } })).toThrowError(
        expect.objectContaining({ statusCode: 400, code: 'VARIABLE_INVALID', message: 'Variable "ids" item 2 must be a number', details: [{ path: 'variables.ids', message: 'item 2 must be a number' }] }),
      );
      expect(() => resolveVariables({ bindings: listBindings, runtime: { ids: Array.from({ length: 1001 }, () => 1), needed: '2025-01-01' } })).toThrowError(
        expect.objectContaining({ code: 'VARIABLE_INVALID', message: expect.stringContaining('a list holds at most 1000') }),
      );
    });
  });

  it('lists the bound variables without a value, sorted', () => {
    const vars = resolveVariables({
      bindings: [
        { name: 'z', type: 'string' },
        { name: 'a', type: 'number[]' },
        { name: 'm', type: 'string', default_value: 'x' },
      ],
      runtime: { free: 'x' },
    });
    expect(variablesWithoutValue(vars)).toEqual(['a', 'z']);
  });

  it('refuses a binding of an unknown type', () => {
    const bindings = [{ name: 'x', type: 'uuid' as unknown as 'string' }];
    expect(() => resolveVariables({ bindings })).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID', message: 'Variable "x" has an unknown type "uuid"' }));
  });
});
