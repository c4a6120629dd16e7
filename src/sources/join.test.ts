import { describe, expect, it } from 'vitest';
import { joinResults, parseFieldPath } from './join.js';

describe('parseFieldPath', () => {
  it('splits the rows path and the field path', () => {
    expect(parseFieldPath('root[].a.b')).toEqual({ rows: [], field: ['a', 'b'] });
    expect(parseFieldPath('root.data[].attributes.id')).toEqual({ rows: ['data'], field: ['attributes', 'id'] });
    expect(parseFieldPath('id')).toEqual({ rows: [], field: ['id'] });
    expect(() => parseFieldPath('root.a[].b[].c')).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});

describe('joinResults', () => {
  const orders = [
    { id: 1, customer: { id: 10 }, total: 5 },
    { id: 2, customer: { id: 11 }, total: 7 },
    { id: 3, customer: { id: 99 }, total: 9 },
    { id: 4, customer: { id: null }, total: 1 },
  ];
  const customers = { data: [{ cid: 10, name: 'Ann', country: 'US' }, { cid: 11, name: 'Bob', country: 'DE' }, { cid: 11, name: 'Bob v2', country: 'DE' }] };
  const countries = [{ code: 'US', region: 'Americas' }, { code: 'DE', region: 'Europe' }];

  it('left-joins under the alias, last match wins, unmatched rows kept', () => {
    const results = new Map<string, unknown[] | Record<string, unknown>>([
      ['1', orders],
      ['2', customers],
    ]);
    const joined = joinResults(1, results, [{ dr_id: 1, join_id: 2, dr_field: 'root[].customer.id', join_field: 'root.data[].cid', alias: 'c' }]);
    expect(joined).toEqual([
      { id: 1, customer: { id: 10 }, total: 5, c: { cid: 10, name: 'Ann', country: 'US' } },
      { id: 2, customer: { id: 11 }, total: 7, c: { cid: 11, name: 'Bob v2', country: 'DE' } },
      { id: 3, customer: { id: 99 }, total: 9 },
      { id: 4, customer: { id: null }, total: 1 },
    ]);
    // Inputs are never modified.
    expect(orders[0]).toEqual({ id: 1, customer: { id: 10 }, total: 5 });
  });

  it('chains joins through an earlier alias, and merges without an alias (row fields win)', () => {
    const joined = joinResults(
      'main',
      { main: orders.slice(0, 2), cust: customers, geo: countries },
      [
        { dr_id: 'main', join_id: 'cust', dr_field: 'root[].customer.id', join_field: 'root.data[].cid', alias: 'c' },
        { dr_id: 'cust', join_id: 'geo', dr_field: 'root.data[].country', join_field: 'root[].code', alias: null },
      ],
    );
    expect(joined).toEqual([
      { id: 1, customer: { id: 10 }, total: 5, c: { cid: 10, name: 'Ann', country: 'US' }, code: 'US', region: 'Americas' },
      { id: 2, customer: { id: 11 }, total: 7, c: { cid: 11, name: 'Bob v2', country: 'DE' }, code: 'DE', region: 'Europe' },
    ]);
  });

  it('joins rows nested in an object response and keeps the envelope', () => {
    const joined = joinResults(1, { 1: { meta: { page: 1 }, items: [{ k: 'a' }, { k: 'b' }] }, 2: [{ key: 'b', v: 2 }] }, [
      { dr_id: 1, join_id: 2, dr_field: 'root.items[].k', join_field: 'root[].key', alias: 'x' },
    ]);
    expect(joined).toEqual({ meta: { page: 1 }, items: [{ k: 'a' }, { k: 'b', x: { key: 'b', v: 2 } }] });
  });

  it('an inner join drops the rows without a match (also through an earlier alias); left is the default', () => {
    const results = { 1: orders, 2: customers, 3: countries };
    const byCustomer = { dr_id: 1, join_id: 2, dr_field: 'root[].customer.id', join_field: 'root.data[].cid', alias: 'c' };
    expect((joinResults(1, results, [{ ...byCustomer, type: 'inner' }]) as { id: number }[]).map((r) => r.id)).toEqual([1, 2]);
    expect((joinResults(1, results, [{ ...byCustomer, type: 'left' }]) as { id: number }[]).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect((joinResults(1, results, [{ ...byCustomer, type: null }]) as { id: number }[]).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    // Only the US customer's country is known: an inner second join keeps order 1 alone.
    const chained = joinResults(1, { ...results, 3: [{ code: 'US', region: 'Americas' }] }, [
      byCustomer,
      { dr_id: 2, join_id: 3, dr_field: 'root.data[].country', join_field: 'root[].code', alias: 'geo', type: 'inner' },
    ]) as { id: number; geo: { region: string } }[];
    expect(chained).toEqual([{ id: 1, customer: { id: 10 }, total: 5, c: { cid: 10, name: 'Ann', country: 'US' }, geo: { code: 'US', region: 'Americas' } }]);
    // Merged without an alias, inner as well; the envelope of an object response is kept.
    expect(joinResults(1, { 1: { items: [{ k: 'a' }, { k: 'b' }] }, 2: [{ key: 'b', v: 2 }] }, [{ dr_id: 1, join_id: 2, dr_field: 'root.items[].k', join_field: 'root[].key', type: 'inner' }])).toEqual({
      items: [{ k: 'b', key: 'b', v: 2 }],
    });
  });

  it('matches strictly (1 is not "1") and stays linear on big inputs', () => {
    expect(joinResults(1, { 1: [{ a: 1 }], 2: [{ b: '1' }] }, [{ dr_id: 1, join_id: 2, dr_field: 'a', join_field: 'b', alias: 'j' }])).toEqual([{ a: 1 }]);
    const n = 200_000;
    const left = Array.from({ length: n }, (_, i) => ({ id: i }));
    const right = Array.from({ length: n }, (_, i) => ({ ref: n - 1 - i, v: i }));
    const started = performance.now();
    const joined = joinResults(1, { 1: left, 2: right }, [{ dr_id: 1, join_id: 2, dr_field: 'root[].id', join_field: 'root[].ref', alias: 'r' }]) as Array<{
      r: { v: number };
    }>;
    expect(joined[0]?.r.v).toBe(n - 1);
    // An O(n*m) join of 200k x 200k would take many minutes; the bound leaves room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
