/**
 * The SQL the planner writes (no database here; pushdown-equivalence.int.test.ts runs it): bound
 * values, quoting, eligibility reasons, the zone table against the engine's clock, and reading
 * grouped rows back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateValues } from '../../../test/helpers/aggregate-values.js';
import { DAY_MS } from '../calendar.js';
import type { ChartInput, DatasetConfigInput } from '../types.js';
import { ZoneClock } from '../zone-clock.js';
import {
  buildPushdownPlan,
  canPushDown,
  describeSql,
  PushdownFallbackError,
  PushdownIneligibleError,
  resultToSeries,
  type PushdownDialect,
  type ResultColumn,
} from './index.js';
import { quoteIdentifier, render, sql, Sql } from './sql-text.js';
import { subqueryText } from './user-query.js';
import { offsetTable, piecewise, wallThresholds } from './zone-offsets.js';

const PG_COLUMNS: ResultColumn[] = [
  { name: 'created_at', type: 'date', sourceType: 'timestamptz' },
  { name: 'local_at', type: 'date', sourceType: 'timestamp' },
  { name: 'day', type: 'date', sourceType: 'date' },
  { name: 'status', type: 'string', sourceType: 'text' },
  { name: 'amount', type: 'number', sourceType: 'numeric' },
  { name: 'qty', type: 'number', sourceType: 'int4' },
  { name: 'big', type: 'number', sourceType: 'int8' },
  { name: 'score', type: 'number', sourceType: 'float8' },
  { name: 'ok', type: 'boolean', sourceType: 'bool' },
  { name: 'payload', type: 'json', sourceType: 'jsonb' },
  { name: 'ratio', type: 'number', sourceType: 'float4' },
];
const MY_COLUMNS: ResultColumn[] = [
  { name: 'created_at', type: 'date', sourceType: 'DATETIME' },
  { name: 'day', type: 'date', sourceType: 'DATE' },
  { name: 'status', type: 'string', sourceType: 'VAR_STRING' },
  { name: 'amount', type: 'number', sourceType: 'NEWDECIMAL' },
  { name: 'qty', type: 'number', sourceType: 'LONG' },
  { name: 'score', type: 'number', sourceType: 'DOUBLE' },
];
const COLUMNS: Record<PushdownDialect, ResultColumn[]> = { postgres: PG_COLUMNS, mysql: MY_COLUMNS };

const byDay: DatasetConfigInput = { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxisOperation: 'count' };
const line: ChartInput = { type: 'line', timeInterval: 'day', timezone: 'Europe/Paris' };

function plan(dialect: PushdownDialect, config: DatasetConfigInput, chart: ChartInput = line, query = 'SELECT * FROM orders') {
  return buildPushdownPlan(chart, config, { text: query, values: [] }, dialect, { columns: COLUMNS[dialect], datasets: [config] });
}

describe('parameters', () => {
  it('numbers ours after the user query’s own $n in Postgres', () => {
    const statement = sql`SELECT ${Sql.param('a')} FROM (${Sql.query({ text: 'SELECT * FROM t WHERE x = $1 AND y = $2', values: [10, 20] })}) q WHERE z = ${Sql.param('b')}`;
    expect(render(statement, 'postgres')).toEqual({
      sql: 'SELECT $3 FROM (SELECT * FROM t WHERE x = $1 AND y = $2) q WHERE z = $4',
      params: [10, 20, 'a', 'b'],
    });
  });

  it('keeps MySQL ? values in text order, the user’s where the user’s text sits', () => {
    const statement = sql`SELECT ${Sql.param('a')} FROM (${Sql.query({ text: 'SELECT * FROM t WHERE x = ? AND y = ?', values: [10, 20] })}) q WHERE z = ${Sql.param('b')}`;
    expect(render(statement, 'mysql')).toEqual({ sql: 'SELECT ? FROM (SELECT * FROM t WHERE x = ? AND y = ?) q WHERE z = ?', params: ['a', 10, 20, 'b'] });
  });

  it('writes only safe integers as literals', () => {
    expect(() => sql`${Sql.trusted('x')}`).not.toThrow();
    expect(() => render(sql`${Sql.param(1)}`, 'postgres')).not.toThrow();
  });

  it.each<PushdownDialect>(['postgres', 'mysql'])('%s: a plan’s parameters follow the user’s, in placeholder order', (dialect) => {
    const config: DatasetConfigInput = { ...byDay, conditions: [{ field: 'status', operator: 'is', value: 'paid' }] };
    const user = dialect === 'postgres' ? 'SELECT * FROM orders WHERE team = $1' : 'SELECT * FROM orders WHERE team = ?';
    const built = buildPushdownPlan({ ...line, startDate: '2025-01-01', endDate: '2025-01-31' }, config, { text: user, values: [42] }, dialect, {
      columns: COLUMNS[dialect],
    });
    expect(built.params[0]).toBe(42);
    expect(built.params).toContain('paid');
    if (dialect === 'postgres') {
      const numbers = [...built.sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
      expect(new Set(numbers)).toEqual(new Set(built.params.map((_, i) => i + 1)));
    } else {
      expect(built.sql.split('?').length - 1).toBe(built.params.length);
      // The user's placeholder comes first in the text, so its value is first in the list.
      expect(built.sql.indexOf('team = ?')).toBeLessThan(built.sql.lastIndexOf('?'));
    }
  });
});

describe('injection attempts', () => {
  const attempts = ["x' OR '1'='1", "'; DROP TABLE orders; --", 'a\\', '$1', '?', '"; SELECT pg_sleep(10); --', '`) OR 1=1 -- ', "\\'; DROP TABLE t; #"];

  it.each<PushdownDialect>(['postgres', 'mysql'])('%s: condition values are bound, never written into the SQL', (dialect) => {
    const withValue = (value: string) =>
      plan(
        dialect,
        {
          xAxis: 'status',
          yAxisOperation: 'count',
          conditions: [
            { field: 'status', operator: 'is', value },
            { field: 'status', operator: 'contains', value },
            { field: 'status', operator: 'isNot', value: [value, 'other'] },
          ],
        },
        { type: 'bar' },
      );
    const baseline = withValue('zzz').sql;
    for (const value of attempts) {
      const built = withValue(value);
      // The text does not depend on the value at all; the value travels as a parameter.
      expect(built.sql).toBe(baseline);
      expect(built.params.filter((p) => p === value)).toHaveLength(3);
    }
  });

  it.each<PushdownDialect>(['postgres', 'mysql'])('%s: window bounds and numbers are bound too', (dialect) => {
    const config: DatasetConfigInput = { ...byDay, conditions: [{ field: 'qty', operator: 'greaterThan', value: '1; DROP TABLE t' }] };
    const built = plan(dialect, config, { ...line, startDate: '2025-01-01', endDate: '2025-01-31' });
    expect(built.sql).not.toContain('2025-01');
    expect(built.sql).not.toContain('DROP');
  });

  it('quotes identifiers by doubling the quote character', () => {
    expect(quoteIdentifier('a"b', 'postgres')).toBe('"a""b"');
    expect(quoteIdentifier('a`b', 'mysql')).toBe('`a``b`');
    expect(quoteIdentifier('x"; DROP TABLE t; --', 'postgres')).toBe('"x""; DROP TABLE t; --"');
  });

  it('refuses names it cannot quote faithfully', () => {
    expect(quoteIdentifier('a\u0000b', 'postgres')).toBeNull();
    expect(quoteIdentifier('', 'mysql')).toBeNull();
    expect(quoteIdentifier('x'.repeat(64), 'postgres')).toBeNull(); // Postgres would truncate it to another name
    expect(quoteIdentifier('é'.repeat(32), 'postgres')).toBeNull(); // 64 bytes
    expect(quoteIdentifier('trailing ', 'mysql')).toBeNull();
    expect(quoteIdentifier('😀', 'mysql')).toBeNull();
    expect(quoteIdentifier('\uD800x', 'postgres')).toBeNull();
  });

  it.each<PushdownDialect>(['postgres', 'mysql'])('%s: a column named like an attack is quoted, not run', (dialect) => {
    const name = dialect === 'postgres' ? 'x"); DROP TABLE t; --' : 'x`); DROP TABLE t; --';
    const columns = [{ name, type: 'string', sourceType: dialect === 'postgres' ? 'text' : 'VAR_STRING' }];
    const config: DatasetConfigInput = { xAxis: name, yAxisOperation: 'count' };
    const built = buildPushdownPlan({ type: 'pie' }, config, { text: 'SELECT * FROM t', values: [] }, dialect, { columns });
    const quoted = dialect === 'postgres' ? '"x""); DROP TABLE t; --"' : '`x``); DROP TABLE t; --`';
    expect(built.sql).toContain(`SELECT ${quoted} AS pd_c0`);
    expect(built.sql.replaceAll(quoted, '')).not.toContain('DROP');
  });

  it('refuses a column whose name cannot be quoted', () => {
    const columns = [{ name: 'a\u0000b', type: 'string', sourceType: 'text' }];
    expect(canPushDown({ type: 'pie' }, { xAxis: 'a\u0000b', yAxisOperation: 'count' }, 'postgres', { columns })).toEqual({
      ok: false,
      reason: expect.stringContaining('cannot be quoted'),
    });
  });
});

describe('eligibility', () => {
  const check = (config: DatasetConfigInput, chart: ChartInput = line, dialect: PushdownDialect = 'postgres') =>
    canPushDown(chart, config, dialect, { columns: COLUMNS[dialect] });

  it('accepts the common charts', () => {
    expect(check(byDay)).toEqual({ ok: true });
    expect(check({ xAxis: 'status', yAxis: 'amount', yAxisOperation: 'sum', sort: 'desc', maxRecords: 5 }, { type: 'bar' })).toEqual({ ok: true });
    expect(check({ yAxis: 'amount', yAxisOperation: 'avg' }, { type: 'kpi' })).toEqual({ ok: true });
    expect(check({ ...byDay, conditions: [{ field: 'status', operator: 'isNot', value: ['a', 'b'] }] }, line, 'mysql')).toEqual({ ok: true });
  });

  it.each<[string, DatasetConfigInput, ChartInput, RegExp]>([
    ['table charts', byDay, { type: 'table' }, /table charts return rows/],
    ['markdown charts', byDay, { type: 'markdown' }, /markdown charts/],
    ['nested paths', { xAxis: 'customer.country', yAxisOperation: 'count' }, { type: 'pie' }, /not a top-level column/],
    ['array paths', { xAxis: 'root[].items[].sku', yAxisOperation: 'count' }, { type: 'pie' }, /not a top-level column/],
    ['"none"', { xAxis: 'status', yAxis: 'amount', yAxisOperation: 'none' }, { type: 'bar' }, /last value of each group in row order/],
    ['float sums', { xAxis: 'status', yAxis: 'score', yAxisOperation: 'sum' }, { type: 'bar' }, /order of additions/],
    ['unknown columns', { xAxis: 'country', yAxisOperation: 'count' }, { type: 'pie' }, /no column "country"/],
    ['JSON columns', { xAxis: 'payload', yAxisOperation: 'count' }, { type: 'pie' }, /type jsonb/],
    ['float4 columns', { xAxis: 'ratio', yAxisOperation: 'count' }, { type: 'pie' }, /type float4/],
    ['timestamptz categories', { xAxis: 'created_at', yAxisOperation: 'count' }, { type: 'pie' }, /session zone/],
    ['a time axis on numbers', { xAxis: 'qty', dateField: 'qty', yAxisOperation: 'count' }, line, /time axis on a integer column/],
    ['sums of text', { xAxis: 'qty', yAxis: 'status', yAxisOperation: 'sum' }, { type: 'bar' }, /parses numbers out of text/],
    [
      'numeric conditions on text',
      { ...byDay, conditions: [{ field: 'status', operator: 'greaterThan', value: '10' }] },
      line,
      /compares the text as JavaScript numbers/,
    ],
    ['date conditions on text', { ...byDay, conditions: [{ field: 'status', operator: 'is', value: '2025-01-01' }] }, line, /parses the text as dates/],
    ['contains on decimals', { ...byDay, conditions: [{ field: 'amount', operator: 'contains', value: '5' }] }, line, /JavaScript text/],
    [
      'text conditions on big integers',
      { ...byDay, conditions: [{ field: 'big', operator: 'is', value: 'abc' }] },
      line,
      /compares large values as text/,
    ],
    [
      'ordering by text with high characters',
      { ...byDay, conditions: [{ field: 'status', operator: 'greaterThan', value: 'a😀' }] },
      line,
      /UTF-16/,
    ],
  ])('refuses %s', (_name, config, chart, reason) => {
    const verdict = check(config, chart);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(reason);
  });

  it('refuses a query it cannot wrap', () => {
    const config = byDay;
    const compiled = (text: string) => ({ columns: PG_COLUMNS, query: { text, values: [] } });
    expect(canPushDown(line, config, 'postgres', compiled('SELECT 1; SELECT 2'))).toEqual({ ok: false, reason: expect.stringMatching(/more than one statement/) });
    expect(canPushDown(line, config, 'postgres', compiled('SHOW search_path'))).toEqual({ ok: false, reason: expect.stringMatching(/starts with SHOW/) });
    expect(canPushDown(line, config, 'postgres', compiled('SELECT * FROM orders;  -- done\n'))).toEqual({ ok: true });
  });

  it('checks the configuration alone when the columns are not known yet', () => {
    expect(canPushDown(line, byDay, 'postgres')).toEqual({ ok: true });
    expect(canPushDown(line, { xAxis: 'a.b', yAxisOperation: 'count' }, 'postgres').ok).toBe(false);
    expect(canPushDown({ type: 'table' }, byDay, 'mysql').ok).toBe(false);
  });

  it('reports an invalid configuration instead of throwing', () => {
    expect(canPushDown({ type: 'line', timezone: 'Mars/Olympus' }, byDay, 'postgres')).toEqual({ ok: false, reason: expect.stringMatching(/timezone/) });
  });

  it('throws a typed error when asked for a plan it refused', () => {
    expect(() => plan('postgres', { xAxis: 'status', yAxis: 'amount', yAxisOperation: 'none' }, { type: 'bar' })).toThrow(PushdownIneligibleError);
  });
});

describe('the grouped query', () => {
  it('pushes LIMIT only when the engine would keep exactly those points', () => {
    const last3: DatasetConfigInput = { ...byDay, maxRecords: 3 };
    expect(plan('postgres', last3).sql).toMatch(/ORDER BY pd_u DESC, pd_k DESC LIMIT 4$/);
    // Gap filling adds buckets, a running total needs the earlier ones, another dataset shares the axis.
    expect(plan('postgres', last3, { ...line, includeZeros: true }).sql).not.toContain('LIMIT 4');
    expect(plan('postgres', last3, { ...line, subType: 'AddTimeseries' }).sql).not.toContain('LIMIT 4');
    const shared = buildPushdownPlan(line, last3, { text: 'SELECT * FROM orders', values: [] }, 'postgres', { columns: PG_COLUMNS, datasets: [last3, byDay] });
    expect(shared.sql).not.toContain('LIMIT 4');
    const unknownChart = buildPushdownPlan(line, last3, { text: 'SELECT * FROM orders', values: [] }, 'postgres', { columns: PG_COLUMNS });
    expect(unknownChart.sql).not.toContain('LIMIT 4');
  });

  it('ranks with ties for a sorted top N, and not with a formula', () => {
    const top: DatasetConfigInput = { xAxis: 'status', yAxis: 'amount', yAxisOperation: 'sum', sort: 'desc', maxRecords: 2 };
    expect(plan('mysql', top, { type: 'bar' }).sql).toContain('RANK() OVER (ORDER BY COALESCE(CAST(pd_s AS DOUBLE), 0) DESC) AS pd_r');
    expect(plan('mysql', { ...top, formula: '{val * 2}' }, { type: 'bar' }).sql).not.toContain('RANK()');
  });

  it('writes no zone table for UTC and fixed offsets', () => {
    const utc = plan('postgres', byDay, { ...line, timezone: 'UTC', timeInterval: 'hour' }).sql;
    expect(utc).not.toContain('CASE WHEN pd_t0 <');
    const kolkata = plan('postgres', byDay, { ...line, timezone: 'Asia/Kolkata', timeInterval: 'hour', startDate: '2025-01-01', endDate: '2025-01-31' }).sql;
    expect(kolkata).toContain('pd_t0 + 19800000');
    const paris = { ...line, timeInterval: 'hour', startDate: '2025-01-01', endDate: '2025-12-31' };
    // Postgres looks offsets up in arrays (one call for the planner to cost), MySQL through a CASE.
    expect(plan('postgres', byDay, paris).sql).toMatch(/\(CAST\(ARRAY\[3600000, 7200000, 3600000\] AS bigint\[\]\)\)\[width_bucket\(pd_t0, CAST\(ARRAY\[1743296400000, /);
    expect(plan('mysql', byDay, paris).sql).toMatch(/CASE WHEN pd_t0 < 1743296400000 THEN 3600000 ELSE/);
  });

  /** The row-level query: what runs once per row, up to its GROUP BY. */
  const rowLevel = (text: string): string => {
    // The stage that renames the user's columns opens the line before the user's query.
    const renaming = text.lastIndexOf('SELECT ', text.indexOf(' FROM (\n'));
    return text.slice(text.lastIndexOf('SELECT ', renaming - 1), text.indexOf(' GROUP BY 1'));
  };

  it('groups rows by cheap keys and checks values once per group', () => {
    const utc = { ...line, timezone: 'UTC' };
    const rows = rowLevel(plan('postgres', { ...byDay, yAxis: 'qty' }, utc).sql);
    expect(rows).toContain(`date_trunc('day', (pd_c0 AT TIME ZONE 'UTC')) AS pd_x0_0, COUNT(pd_c1) AS pd_v`);
    expect(rows).not.toMatch(/extract|OFFSET|CASE/);
    const sum = plan('postgres', { xAxis: 'status', yAxis: 'amount', yAxisOperation: 'sum' }, { type: 'bar' }).sql;
    expect(rowLevel(sum)).toContain('SUM(pd_c1) AS pd_s, SUM(pd_c1) FILTER (WHERE pd_c1 < 0) AS pd_sn FROM');
    expect(rowLevel(sum)).not.toMatch(/AS text\) (NOT )?IN|scale|abs/);
    // NaN, infinities and huge terms show in the group's sum.
    expect(sum).toContain('CASE WHEN abs(pd_s) >= 1e300 OR abs((pd_s - 2 * COALESCE(pd_sn, 0))) >= 1e300 THEN 1 ELSE 0 END AS pd_u');
    expect(sum).toContain('scale(SUM(pd_s)) AS pd_sc');
  });

  it('cuts cells so that no bucket edge, offset change or bound falls inside one', () => {
    const cells = (chart: ChartInput, config: DatasetConfigInput = byDay, dialect: PushdownDialect = 'postgres') => rowLevel(plan(dialect, config, chart).sql);
    // Local midnights at +05:30: hour cells of UTC shifted by half an hour, not half-hour cells.
    expect(cells({ ...line, timezone: 'Asia/Kolkata', timeInterval: 'hour' })).toContain(
      `date_trunc('hour', ((CASE WHEN pd_c0 > TIMESTAMPTZ '294276-12-30 00:00:00+00' THEN TIMESTAMP '294276-12-30 00:00:00' ELSE (pd_c0 AT TIME ZONE 'UTC') END) + INTERVAL '1800000000 microseconds'))`,
    );
    // Paris changes offset at whole hours: hour cells for day buckets.
    expect(cells(line)).toContain(`date_trunc('hour', (pd_c0 AT TIME ZONE 'UTC')) AS pd_x0_0`);
    // A bound off the cell edges cuts the cells there (Postgres) or shortens them (MySQL).
    const exact = { xAxis: 'local_at', dateField: 'local_at', yAxisOperation: 'count', conditions: [{ field: 'local_at', operator: 'greaterThan', value: '2025-03-01T10:15:30.250', type: 'date' }] };
    const utc = { ...line, timezone: 'UTC' };
    expect(cells(utc, exact)).toContain(`date_trunc('day', pd_c0) AS pd_x0_0, width_bucket(pd_c0, CAST(ARRAY['2025-03-01 10:15:30.250', '2025-03-01 10:15:30.251'] AS timestamp[]))`);
    expect(cells(utc, { ...byDay, conditions: exact.conditions.map((c) => ({ ...c, field: 'created_at' })) }, 'mysql')).toMatch(/MOD\(MOD\(.*, 1000\) \+ 1000, 1000\)/);
    // A timestamptz against whole milliseconds is compared on every row, as it is: no cut, no instants.
    const instant = plan('postgres', { ...byDay, conditions: [{ field: 'created_at', operator: 'greaterThan', value: '2025-03-01T10:15:30.250Z', type: 'date' }] }, utc);
    expect(rowLevel(instant.sql)).toContain(`date_trunc('day', (pd_c0 AT TIME ZONE 'UTC')) AS pd_x0_0, COUNT(*) AS pd_n FROM`);
    // The comparison first: rows it keeps need no more; those the engine may read differently pass after it.
    expect(rowLevel(instant.sql)).toContain(
      "WHERE ((pd_c0 IS NOT NULL AND pd_c0 >= CAST($1 AS timestamptz)) OR (pd_c0 IS NOT NULL AND NOT (pd_c0 >= TIMESTAMPTZ '0001-01-03 00:00:00+00' AND pd_c0 < TIMESTAMPTZ '9999-12-29 00:00:00+00')))",
    );
    expect(instant.params[0]).toBe('2025-03-01T10:15:30.251Z');
    // Categories of a date-time are its exact values.
    expect(cells({ type: 'bar' }, { xAxis: 'local_at', yAxisOperation: 'count' })).toBe('SELECT pd_c0 AS pd_c0, COUNT(*) AS pd_n FROM (SELECT "local_at" AS pd_c0 FROM (\nSELECT * FROM orders\n) AS q) AS pd_s0');
  });

  it('filters rows on a date column itself before grouping, a day wider than a date condition on wall-clock values', () => {
    const between = [
      { field: 'local_at', operator: 'greaterOrEqual', value: '2025-03-01' },
      { field: 'local_at', operator: 'lessOrEqual', value: '2025-03-31T23:59:59.999' },
    ];
    const built = plan('postgres', { xAxis: 'status', yAxisOperation: 'count', conditions: between }, { type: 'bar', timezone: 'Europe/Paris' });
    const prefilter = built.sql.slice(built.sql.indexOf(') AS q WHERE '), built.sql.indexOf(') AS pd_s0'));
    expect(prefilter).toContain('OR ("local_at" >= CAST($1 AS timestamp))');
    expect(prefilter).toContain('OR ("local_at" <= CAST($2 AS timestamp))');
    // Paris midnight of March 1st less a day; the instant after March 31st 23:59:59.999 plus a day.
    expect(built.params.slice(0, 2)).toEqual(['2025-02-27 23:00:00.000', '2025-04-01 22:00:00.000']);
    // Lists and negations imply no range: no prefilter.
    const list = plan('postgres', { xAxis: 'status', yAxisOperation: 'count', conditions: [{ field: 'local_at', operator: 'is', value: ['2025-03-01', '2025-04-01'] }] }, { type: 'bar' });
    expect(list.sql).not.toContain(') AS q WHERE ');
    const not = plan('postgres', { xAxis: 'status', yAxisOperation: 'count', conditions: [{ field: 'local_at', operator: 'isNot', value: '2025-03-01' }] }, { type: 'bar' });
    expect(not.sql).not.toContain(') AS q WHERE ');
  });

  it('describes the user query through the ordinary run API', () => {
    expect(describeSql('SELECT * FROM t WHERE a = {{a}};', 'mysql')).toBe('SELECT * FROM (\nSELECT * FROM t WHERE a = {{a}}\n) AS q LIMIT 0');
    expect(describeSql('DELETE FROM t', 'postgres')).toBeNull();
  });
});

describe('the user query as a subquery', () => {
  it.each<[string, PushdownDialect, string | null]>([
    ['SELECT 1;', 'postgres', 'SELECT 1'],
    ['select 1 ;; -- bye\n', 'postgres', 'select 1'],
    ["SELECT ';' AS s", 'postgres', "SELECT ';' AS s"],
    ['SELECT $$;$$ AS s', 'postgres', 'SELECT $$;$$ AS s'],
    ["SELECT E'\\';' AS s", 'postgres', "SELECT E'\\';' AS s"],
    ['SELECT "a;b" FROM t', 'postgres', 'SELECT "a;b" FROM t'],
    ["SELECT 'a\\';' AS s", 'mysql', "SELECT 'a\\';' AS s"],
    ['SELECT 1 # comment; with semicolon\n', 'mysql', 'SELECT 1'],
    ['/* lead */ WITH x AS (SELECT 1) SELECT * FROM x', 'mysql', '/* lead */ WITH x AS (SELECT 1) SELECT * FROM x'],
    ['(SELECT 1) UNION (SELECT 2)', 'postgres', '(SELECT 1) UNION (SELECT 2)'],
    ['VALUES (1)', 'postgres', 'VALUES (1)'],
    ['VALUES (1)', 'mysql', null],
    ['SELECT 1; DROP TABLE t', 'postgres', null],
    ['EXPLAIN SELECT 1', 'mysql', null],
    ["SELECT 'open", 'postgres', null],
    ['', 'postgres', null],
  ])('%j (%s)', (text, dialect, expected) => {
    const result = subqueryText(text, dialect);
    expect(result.ok ? result.text : null).toBe(expected);
  });
});

describe('zone table', () => {
  const zones = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Asia/Kolkata', 'Pacific/Chatham'];
  const from = Date.UTC(1985, 0, 1);
  const to = Date.UTC(2030, 0, 1);

  /** Evaluates the CASE the planner writes, in JavaScript. */
  function evaluate(thresholds: readonly number[], values: readonly number[], x: number): number {
    let i = 0;
    while (i < thresholds.length && x >= thresholds[i]!) i += 1;
    return values[i]!;
  }

  it.each(zones)('%s: offsets equal the engine clock’s at any instant', (zone) => {
    const clock = ZoneClock.of(zone);
    const table = offsetTable(clock, from, to);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to - 1 }), (t) => evaluate(table.transitions, table.offsets, t) === clock.offsetMs(t)),
      { numRuns: 2_000 },
    );
    // And exactly at and next to every transition.
    for (const T of table.transitions) {
      for (const t of [T - 1, T, T + 1]) expect(evaluate(table.transitions, table.offsets, t)).toBe(clock.offsetMs(t));
    }
  });

  it.each(zones)('%s: wall-clock times resolve to the instants ZoneClock.wallToInstant gives', (zone) => {
    const clock = ZoneClock.of(zone);
    const table = offsetTable(clock, from, to);
    const thresholds = wallThresholds(table)!;
    expect(thresholds).not.toBeNull();
    const anywhere = fc.integer({ min: from + DAY_MS, max: to - DAY_MS });
    // Walls in and around every skipped or repeated stretch.
    const nearTransitions =
      table.transitions.length === 0
        ? anywhere
        : fc
            .tuple(fc.constantFrom(...table.transitions), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }))
            .map(([T, d]) => T + clock.offsetMs(T - DAY_MS) + d);
    fc.assert(
      fc.property(fc.oneof(nearTransitions, anywhere), (wall) => {
        return wall - evaluate(thresholds, table.offsets, wall) === clock.wallToInstant(wall);
      }),
      { numRuns: 3_000 },
    );
  });

  it('writes the CASE as a binary search', () => {
    const text = render(piecewise(Sql.trusted('x'), [10, 20, 30], [1, 2, 3, 4]), 'postgres').sql;
    expect(text).toBe('CASE WHEN x < 20 THEN CASE WHEN x < 10 THEN 1 ELSE 2 END ELSE CASE WHEN x < 30 THEN 3 ELSE 4 END END');
  });
});

describe('reading grouped rows', () => {
  const categorySum = plan('postgres', { xAxis: 'status', yAxis: 'amount', yAxisOperation: 'sum' }, { type: 'bar' });

  it('finishes sums with the engine’s own rounding', () => {
    const series = resultToSeries(categorySum, [{ pd_k: 'paid', pd_u: 0, pd_n: 2, pd_s: '0.30', pd_a: '0.30', pd_v: 2, pd_sc: 2 }]);
    expect(series).toEqual({ axis: 'category', points: new Map([['paid', 0.3]]) });
  });

  it('asks for the streaming path when a sum could round differently', () => {
    // The engine adds the doubles and gets 0.6712742702914; the exact sum rounds to …915.
    const terms = ['-27.941251221917893521', '28.612525492209344116'];
    expect(aggregateValues('sum', terms.map(Number))).toBe(0.6712742702914);
    const row = { pd_k: 'paid', pd_u: 0, pd_n: 2, pd_s: '0.671274270291450595', pd_a: '56.553776714127237637', pd_v: 2, pd_sc: 18 };
    expect(() => resultToSeries(categorySum, [row])).toThrow(PushdownFallbackError);
  });

  it('asks for the streaming path when rows were flagged', () => {
    expect(() => resultToSeries(categorySum, [{ pd_k: null, pd_u: 1, pd_n: 3 }])).toThrow(PushdownFallbackError);
    expect(() => resultToSeries(categorySum, [{ pd_k: null, pd_u: '1', pd_n: 3 }])).toThrow(PushdownFallbackError);
  });

  it('keeps the Total group when there are no rows at all', () => {
    const total = plan('postgres', { yAxis: 'amount', yAxisOperation: 'sum' }, { type: 'kpi' });
    expect(resultToSeries(total, [])).toEqual({ axis: 'none', points: new Map([['Total', null]]) });
    const count = plan('postgres', { yAxisOperation: 'count' }, { type: 'kpi' });
    expect(resultToSeries(count, [])).toEqual({ axis: 'none', points: new Map([['Total', 0]]) });
  });

  it('decodes MySQL text keys from hex, whatever the collation did', () => {
    const built = plan('mysql', { xAxis: 'status', yAxisOperation: 'count' }, { type: 'pie' });
    const rows = [
      { pd_k: Buffer.from('paid').toString('hex'), pd_u: 0, pd_n: 1 },
      { pd_k: Buffer.from('Paid ').toString('hex'), pd_u: 0, pd_n: 2 },
      { pd_k: Buffer.from('é😀').toString('hex').toUpperCase(), pd_u: 0, pd_n: 3 },
    ];
    expect([...resultToSeries(built, rows).points]).toEqual([
      ['paid', 1],
      ['Paid ', 2],
      ['é😀', 3],
    ]);
  });

  it('labels numbers as JavaScript prints them and large decimals as their exact text', () => {
    const built = plan('postgres', { xAxis: 'amount', yAxisOperation: 'count' }, { type: 'pie' });
    const rows = [
      { pd_k: 1.5, pd_k2: null, pd_u: 0, pd_n: 1 },
      { pd_k: '0.1', pd_k2: null, pd_u: 0, pd_n: 1 },
      { pd_k: null, pd_k2: '1234567890123456.70', pd_u: 0, pd_n: 1 },
    ];
    expect([...resultToSeries(built, rows).points.keys()]).toEqual(['1.5', '0.1', '1234567890123456.70']);
  });
});
