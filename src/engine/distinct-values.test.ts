/**
 * A dropdown's distinct values: the streaming collector (bounded, order, search) and the DISTINCT
 * plan the database runs instead (what is bound, when it declines, reading its rows back). The
 * plan is run against real databases in test/http/dataset-values.int.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareDistinct, DistinctCollector, distinctValueOf, type DistinctValue } from './distinct-values.js';
import { PushdownFallbackError, planDistinct, readDistinct, type DistinctPlan, type ResultColumn } from './pushdown/index.js';

const query = { text: 'select * from orders where status = $1', values: ['paid'] };
const PG: ResultColumn[] = [
  { name: 'country', type: 'string', sourceType: 'text' },
  { name: 'amount', type: 'number', sourceType: 'numeric' },
  { name: 'score', type: 'number', sourceType: 'float8' },
  { name: 'created_at', type: 'date', sourceType: 'timestamptz' },
  { name: 'payload', type: 'json', sourceType: 'jsonb' },
];

function queryPlan(plan: DistinctPlan): Extract<DistinctPlan, { kind: 'query' }> {
  if (plan.kind !== 'query') throw new Error(`expected a query, got ${JSON.stringify(plan)}`);
  return plan;
}

describe('distinct values, streamed', () => {
  it('keeps the smallest values in order, whatever the order they come in, and says when it cut', () => {
    const collector = new DistinctCollector(3);
    for (const v of ['b', 7, 'a', true, 7, null, '', undefined, 2.5, 'a', false, { x: 1 }, [1], Number.NaN, Infinity]) collector.add(v);
    expect(collector.result()).toEqual({ values: [false, true, 2.5], truncated: true });
    const all = new DistinctCollector(10);
    for (const v of ['b', 7, 'a', true, 7, 2.5, 'a', false]) all.add(v);
    expect(all.result()).toEqual({ values: [false, true, 2.5, 7, 'a', 'b'], truncated: false });
  });

  it('is the sorted distinct list cut at the limit, for any values and limit (fast-check)', () => {
    const value = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null), fc.double({ noNaN: false }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (values, limit) => {
        const collector = new DistinctCollector(limit);
        for (const v of values) collector.add(v);
        const expected = [...new Set(values.map(distinctValueOf).filter((v): v is DistinctValue => v !== null))].sort(compareDistinct);
        expect(collector.result()).toEqual({ values: expected.slice(0, limit), truncated: expected.length > limit });
      }),
    );
  });

  it('orders text by code points (as UTF-8 bytes do), not by UTF-16 units', () => {
    // U+FF21 (fullwidth A) is one unit above the surrogates of an emoji, but a smaller code point.
    expect('\uFF21' < '😀').toBe(false);
    expect(compareCodePoints('\uFF21', '😀')).toBeLessThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('B', 'a')).toBeLessThan(0);
    expect(Buffer.compare(Buffer.from('\uFF21'), Buffer.from('😀'))).toBeLessThan(0);
  });

  it('searches the text of every value, ignoring case; an empty search is none', () => {
    const collector = new DistinctCollector(10, 'Ré');
    for (const v of ['Rémi', 'RÉSEAU', 'rex', 12, 'André']) collector.add(v);
    expect(collector.result().values).toEqual(['André', 'RÉSEAU', 'Rémi']);
    const numbers = new DistinctCollector(10, '1');
    for (const v of [1, 10, 2, 21, true]) numbers.add(v);
    expect(numbers.result().values).toEqual([1, 10, 21]);
    const none = new DistinctCollector(10, '');
    none.add('x');
    expect(none.result().values).toEqual(['x']);
  });

  it('reads a Date as its ISO text and -0 as 0', () => {
    expect(distinctValueOf(new Date('2025-01-02T03:04:05Z'))).toBe('2025-01-02T03:04:05.000Z');
    expect(Object.is(distinctValueOf(-0), 0)).toBe(true);
    expect(distinctValueOf(new Date(Number.NaN))).toBeNull();
  });
});

describe('distinct values, the database’s plan', () => {
  it('wraps the user query once, binds the search after its values, and cuts at limit + 1', () => {
    const plan = queryPlan(planDistinct(query, 'postgres', PG, 'root[].country', { limit: 5, search: "X' OR 1=1 --" }));
    expect(plan.sql).toBe(
      'SELECT pd_v AS pd_v FROM (SELECT "country" AS pd_v FROM (\nselect * from orders where status = $1\n) AS q) AS pd_s ' +
        "WHERE pd_v IS NOT NULL AND CAST(pd_v AS text) <> '' AND strpos(lower(CAST(pd_v AS text)), CAST($2 AS text)) > 0 " +
        'GROUP BY pd_v ORDER BY (CAST(pd_v AS text)) COLLATE "C" LIMIT 6',
    );
    expect(plan.params).toEqual(['paid', "x' or 1=1 --"]);
    const mysql = queryPlan(planDistinct({ text: 'select * from orders where status = ?', values: ['paid'] }, 'mysql', [{ name: 'country', sourceType: 'VAR_STRING' }], 'country', { limit: 2, search: 'É' }));
    expect(mysql.sql).toContain('GROUP BY pd_g0 ORDER BY pd_g0 LIMIT 3');
    expect(mysql.params).toEqual(['paid', 'é']);
  });

  it('says when the column is missing, and leaves to the stream what SQL cannot list exactly', () => {
    expect(planDistinct(query, 'postgres', PG, 'nope', { limit: 5 })).toEqual({ kind: 'missing' });
    const reason = (field: string, search?: string, columns = PG, dialect: 'postgres' | 'mysql' = 'postgres') => {
      const plan = planDistinct(query, dialect, columns, field, { limit: 5, search: search ?? null });
      return plan.kind === 'stream' ? plan.reason : plan.kind;
    };
    expect(reason('root[].country.name')).toMatch(/top-level/);
    expect(reason('items[].sku')).toMatch(/top-level/);
    expect(reason('payload')).toMatch(/type/);
    expect(reason('created_at')).toMatch(/timestamptz/);
    expect(reason('score')).toBe('query');
    expect(reason('score', '1')).toMatch(/text/);
    expect(reason('amount', '1')).toMatch(/text/);
    expect(reason('Country', undefined, [{ name: 'country', sourceType: 'VAR_STRING' }, { name: 'Country', sourceType: 'VAR_STRING' }], 'mysql')).toMatch(/more than one column/);
    expect(planDistinct({ text: 'select 1; select 2', values: [] }, 'postgres', PG, 'country', { limit: 5 })).toMatchObject({ kind: 'stream' });
  });

  it('reads the rows back in the shared order; a cut answer that collapses in JavaScript falls back', () => {
    const plan = queryPlan(planDistinct(query, 'postgres', PG, 'amount', { limit: 2 }));
    expect(readDistinct(plan, [{ pd_v: 3 }, { pd_v: 1.5 }, { pd_v: '1000000000000000.5' }])).toEqual({ values: [1.5, 3], truncated: true });
    expect(readDistinct(plan, [{ pd_v: 1.5 }])).toEqual({ values: [1.5], truncated: false });
    // Three rows for the database, two values for JavaScript: whether a third exists is unknown.
    expect(() => readDistinct(plan, [{ pd_v: 1.5 }, { pd_v: 1.5 }, { pd_v: 2 }])).toThrow(PushdownFallbackError);
  });
});
