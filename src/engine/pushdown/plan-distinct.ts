/**
 * The distinct values of one column of the user's query, for a filter's dropdown, computed by the
 * database: the user's query as a subquery, grouped by the value, searched, ordered and cut at
 * `limit + 1` rows, with the search and the order written so that the database keeps exactly the
 * values the streaming pass (src/engine/distinct-values.ts) would keep:
 *
 *   SELECT pd_v FROM (SELECT "country" AS pd_v FROM (<user query>) AS q) AS pd_s
 *   WHERE pd_v IS NOT NULL [AND <its text> contains <search>] GROUP BY pd_v ORDER BY <key> LIMIT n+1
 *
 * Groups follow what JavaScript tells apart, not the column's collation (MySQL text is grouped by
 * its bytes, decimals by the number or exact text the source hands over); the order is the
 * engine's (numbers by value before the exact text of numbers too large for a double, text by
 * code points). A search needs the value's text exactly as the source hands it over, so columns
 * whose text SQL cannot reproduce (doubles, decimals, timestamptz) are searched by the streaming
 * pass instead.
 */
import { DistinctCollector, type DistinctValues } from '../distinct-values.js';
import { EACH, parseFieldPath } from '../field-path.js';
import type { Row } from '../types.js';
import { columnKind, type ColumnKind, type ResultColumn } from './columns.js';
import { dialectSql, type DialectSql } from './dialect.js';
import { PushdownFallbackError } from './errors.js';
import { join, render, sql, Sql, type CompiledQuery, type PushdownDialect } from './sql-text.js';
import { subqueryText } from './user-query.js';

export type DistinctPlan =
  /** Run `sql` with `params`, then `readDistinct`. */
  | { readonly kind: 'query'; readonly dialect: PushdownDialect; readonly sql: string; readonly params: unknown[]; readonly limit: number; readonly search: string | null }
  /** The query returns no such column: there are no values. */
  | { readonly kind: 'missing' }
  /** The database cannot give exactly the streaming pass's answer: stream instead. */
  | { readonly kind: 'stream'; readonly reason: string };

export interface DistinctOptions {
  limit: number;
  search?: string | null;
}

/** Integers up to 2^53 reach JavaScript as numbers, larger ones as their exact text. */
const SAFE_INTEGER = Sql.trusted('9007199254740991');
/** Decimals with 16 or more integer digits reach JavaScript as exact text (parseDecimal). */
const DECIMAL_TEXT_FROM = Sql.trusted('1000000000000000');

const V = Sql.trusted('pd_v');
const G0 = Sql.trusted('pd_g0');
const G1 = Sql.trusted('pd_g1');

/** How one column kind is grouped, ordered and searched. */
interface Shape {
  /** Row-level keys (expressions of the column) grouped by; none: grouped by the value itself. */
  readonly keys: Sql[];
  /** The value kept per group. */
  readonly pick: Sql;
  /** ORDER BY: of pd_v when grouped by the value, else of the keys pd_g0, pd_g1. */
  readonly order: Sql[];
  /** The value's text exactly as the source hands it over (of pd_v), for the search; null when SQL cannot write it. */
  readonly text: Sql | null;
  /** Values left out besides nulls (of pd_v). */
  readonly where: Sql[];
}

/**
 * Numbers by value, then the exact text of those too large for a double, by code points: the
 * engine's order of a column that reaches it partly as numbers and partly as text.
 */
function numbersThenText(d: DialectSql, number: Sql | null, small: Sql, text: Sql): Sql[] {
  return [sql`CASE WHEN ${small} THEN 0 ELSE 1 END`, number ?? sql`CASE WHEN ${small} THEN ${V} END`, d.compareSpace(sql`CASE WHEN NOT (${small}) THEN ${text} END`)];
}

function postgresShape(d: DialectSql, kind: ColumnKind, x: Sql): Shape | string {
  const byValue = (order: Sql[], text: Sql | null, where: Sql[] = []): Shape => ({ keys: [], pick: V, order, text, where });
  switch (kind) {
    case 'text':
      return byValue([d.compareSpace(sql`CAST(pd_v AS text)`)], sql`CAST(pd_v AS text)`, [sql`CAST(pd_v AS text) <> ''`]);
    case 'int':
      return byValue([V], sql`CAST(pd_v AS text)`);
    case 'bigint': {
      const small = sql`pd_v BETWEEN -${SAFE_INTEGER} AND ${SAFE_INTEGER}`;
      return byValue(numbersThenText(d, null, small, sql`CAST(pd_v AS text)`), sql`CAST(pd_v AS text)`);
    }
    case 'float':
      // NaN and the infinities reach JavaScript as numbers that are not finite: no dropdown value.
      return byValue([V], null, [sql`NOT (${d.nonFinite('float', V)})`]);
    case 'decimal': {
      // Equal doubles are one value for JavaScript, however many decimals SQL has; NaN is text there.
      const small = sql`abs(${x}) < ${DECIMAL_TEXT_FROM}`;
      return {
        keys: [sql`CASE WHEN ${small} THEN CAST(${x} AS double precision) END`, sql`CASE WHEN NOT (${small}) THEN CAST(${x} AS text) END`],
        pick: sql`MIN(pd_v)`,
        order: [sql`CASE WHEN pd_g0 IS NULL THEN 1 ELSE 0 END`, G0, d.compareSpace(G1)],
        text: null,
        where: [],
      };
    }
    case 'bool':
      return byValue([V], sql`CASE WHEN pd_v THEN 'true' ELSE 'false' END`);
    case 'date':
    case 'wall': {
      const text = d.textKey(kind, V)!;
      return byValue([d.compareSpace(text)], text);
    }
    case 'instant':
      return 'a timestamptz column reaches JavaScript as ISO text written in the session zone, which SQL does not order or search exactly';
  }
}

function mysqlShape(d: DialectSql, kind: ColumnKind, x: Sql): Shape | string {
  const byKey = (key: Sql, order: Sql[], text: Sql | null, where: Sql[] = []): Shape => ({ keys: [key], pick: sql`MIN(pd_v)`, order, text, where });
  switch (kind) {
    case 'text':
      // Grouped and ordered by the bytes JavaScript gets (a collation would merge 'a' and 'A ').
      return byKey(d.sourceText('text', x)!, [G0], d.sourceText('text', V), [sql`LENGTH(pd_v) > 0`]);
    case 'int':
    case 'date':
      return byKey(x, [G0], d.sourceText(kind, V));
    case 'float':
      return byKey(x, [G0], null);
    case 'bigint': {
      const small = sql`pd_g0 BETWEEN -${SAFE_INTEGER} AND ${SAFE_INTEGER}`;
      return byKey(x, numbersThenText(d, sql`CASE WHEN ${small} THEN pd_g0 END`, small, sql`CAST(CAST(pd_g0 AS CHAR) AS BINARY)`), d.sourceText(kind, V));
    }
    case 'decimal': {
      const small = sql`ABS(${x}) < ${DECIMAL_TEXT_FROM}`;
      return {
        keys: [sql`CASE WHEN ${small} THEN CAST(${x} AS DOUBLE) END`, sql`CASE WHEN NOT (${small}) THEN CAST(CAST(${x} AS CHAR) AS BINARY) END`],
        pick: sql`MIN(pd_v)`,
        order: [sql`CASE WHEN pd_g0 IS NULL THEN 1 ELSE 0 END`, G0, G1],
        text: null,
        where: [],
      };
    }
    case 'wall':
      // TIMESTAMP values that print alike in the session zone (clocks going back) are one text.
      return byKey(sql`CAST(${x} AS DATETIME(6))`, [G0], d.sourceText('wall', V));
    case 'bool':
    case 'instant':
      return `MySQL has no ${kind} columns`;
  }
}

/** The value's text contains the (lower-cased) search, ignoring case as `toLowerCase` does for the usual scripts. */
function searchSql(d: DialectSql, text: Sql, needle: string): Sql {
  return d.name === 'postgres'
    ? sql`strpos(lower(${text}), CAST(${Sql.param(needle)} AS text)) > 0`
    : sql`LOCATE(CAST(${Sql.param(needle)} AS BINARY), CAST(LOWER(CONVERT(${text} USING utf8mb4)) AS BINARY)) > 0`;
}

/**
 * The DISTINCT query for `field` over the user's query, given its result columns; or why there is
 * none (no such column, or the streaming pass must answer).
 */
export function planDistinct(query: CompiledQuery, dialect: PushdownDialect, columns: readonly ResultColumn[], field: string, options: DistinctOptions): DistinctPlan {
  const d = dialectSql(dialect);
  let segments;
  try {
    segments = parseFieldPath(field);
  } catch {
    return { kind: 'stream', reason: `"${field}" is not a valid field path` };
  }
  if (segments.length !== 1 || segments[0] === EACH) return { kind: 'stream', reason: `"${field}" is not a top-level column` };
  const name = segments[0] as string;
  const matches = columns.filter((c) => (dialect === 'mysql' ? c.name.toLowerCase() === name.toLowerCase() : c.name === name));
  const exact = matches.filter((c) => c.name === name);
  if (exact.length === 0) return { kind: 'missing' };
  if (matches.length > 1) return { kind: 'stream', reason: `the query returns more than one column named "${name}"` };
  const kind = columnKind(exact[0]!, dialect);
  if (kind === null) return { kind: 'stream', reason: `column "${name}" has a type SQL does not order exactly as JavaScript reads it` };
  const ident = d.ident(name);
  if (ident === null) return { kind: 'stream', reason: `column name "${name}" cannot be quoted safely` };
  const subquery = subqueryText(query.text, dialect);
  if (!subquery.ok) return { kind: 'stream', reason: subquery.reason };

  const shape = dialect === 'postgres' ? postgresShape(d, kind, ident) : mysqlShape(d, kind, ident);
  if (typeof shape === 'string') return { kind: 'stream', reason: shape };
  const needle = options.search ? options.search.toLowerCase() : null;
  const where = [sql`pd_v IS NOT NULL`, ...shape.where];
  if (needle !== null) {
    if (shape.text === null) return { kind: 'stream', reason: `SQL does not write the text of a ${kind} column as JavaScript does` };
    where.push(searchSql(d, shape.text, needle));
  }
  const inner = [sql`${ident} AS pd_v`, ...shape.keys.map((key, i) => sql`${key} AS ${Sql.trusted(`pd_g${i}`)}`)];
  const groupBy = shape.keys.length === 0 ? V : join(shape.keys.map((_, i) => Sql.trusted(`pd_g${i}`)), ', ');
  const statement = sql`SELECT ${shape.pick} AS pd_v FROM (SELECT ${join(inner, ', ')} FROM (\n${Sql.query({ text: subquery.text, values: query.values })}\n) AS q) AS pd_s WHERE ${join(where, ' AND ')} GROUP BY ${groupBy} ORDER BY ${join(shape.order, ', ')}${d.limit(options.limit + 1)}`;
  const rendered = render(statement, dialect);
  return { kind: 'query', dialect, sql: rendered.sql, params: rendered.params, limit: options.limit, search: options.search ?? null };
}

/**
 * The rows of a DISTINCT plan as the streaming pass would have listed them. Throws
 * PushdownFallbackError when a cut answer holds values JavaScript reads as one (so the first
 * `limit` cannot be known from it).
 */
export function readDistinct(plan: Extract<DistinctPlan, { kind: 'query' }>, rows: readonly Row[]): DistinctValues {
  const collector = new DistinctCollector(plan.limit, plan.search);
  for (const row of rows) collector.add(row['pd_v']);
  const result = collector.result();
  if (rows.length > plan.limit && !result.truncated) {
    throw new PushdownFallbackError('the database cut the list at values that JavaScript reads as fewer distinct values');
  }
  return result;
}
