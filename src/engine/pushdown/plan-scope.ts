/**
 * What the parts of one dataset's grouped query share: what it is planned for, the user's
 * columns it reads, and the select lists of our own aliases its stages write.
 */
import type { EngineContext } from '../context.js';
import type { SeriesPlan } from '../series.js';
import type { ColumnKind } from './columns.js';
import type { DialectSql } from './dialect.js';
import { join, sql, Sql, type PushdownDialect } from './sql-text.js';

export interface PlanScope {
  readonly ctx: EngineContext;
  readonly plans: readonly SeriesPlan[];
  readonly plan: SeriesPlan;
  readonly dialect: PushdownDialect;
  readonly d: DialectSql;
  /** `plans` are all of the chart's datasets (else ORDER BY/LIMIT is never pushed). */
  readonly complete: boolean;
}

export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly index: number;
  readonly raw: Sql;
  readonly ident: Sql;
  /** Its instant is read after grouping (time axis, window, date conditions). */
  instant: boolean;
  /** Its value is read after grouping as it is (labels, distinct values, text conditions with instants). */
  exact: boolean;
  /** Instants at which a predicate on its instant changes (`t < bound`): cells must not straddle them. */
  readonly bounds: number[];
  /** A row-level condition reads its flag. */
  rowFlag: boolean;
}

export type Selected = Array<[Sql, string]>;

/**
 * Decimals with 16 or more integer digits reach the engine as exact text (parseDecimal). An integer
 * literal keeps the comparison exact (MySQL reads `1e15` as a double, and 999999999999999.99 would count as text).
 */
export const TEXT_FROM = Sql.trusted('1000000000000000');

export function instantOf(column: Column): Sql {
  column.instant = true;
  return Sql.trusted(`pd_t${column.index}`);
}

export function flagOf(d: DialectSql, column: Column): Sql | null {
  return hasFlag(d, column) ? flagName(column) : null;
}

export function hasFlag(d: DialectSql, column: Column): boolean {
  return d.unsafe(column.kind, column.raw) !== null;
}

export function flagName(column: Column): Sql {
  return Sql.trusted(`pd_f${column.index}`);
}

/** The column is grouped by its value, so expressions of it can wait for the groups. */
export function groupByValue(d: DialectSql, column: Column): boolean {
  if (d.groupKeys(column.kind, column.raw) === null) return false;
  column.exact = true;
  return true;
}

/** Our own aliases carried up unchanged. */
export function passThrough(aliases: readonly string[]): Array<[Sql, string]> {
  return aliases.map((alias) => [Sql.trusted(alias), alias]);
}

export function selectList(items: ReadonlyArray<readonly [Sql, string]>): Sql {
  return join(
    items.map(([expr, alias]) => sql`${expr} AS ${Sql.trusted(alias)}`),
    ', ',
  );
}
