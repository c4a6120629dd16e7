/**
 * The x value of a dataset's grouped query: a time axis's instants, or a category's key in the
 * form the engine's labels take, with how SQL may rank it for ORDER BY/LIMIT. A breakdown's value
 * is a second key of the same form as a category's (`pd_b`, `pd_b2`).
 */
import { Unsupported } from './errors.js';
import { flagOf, groupByValue, instantOf, TEXT_FROM, type Column, type PlanScope, type Selected } from './plan-scope.js';
import { sql, Sql } from './sql-text.js';

export type KeyReading = 'time' | 'text' | 'number' | 'bool' | 'decimal' | 'total';

export interface KeyMaterial {
  readonly reading: KeyReading;
  /** Expressions of the x value: computed per group when x is grouped by its value, else per row and grouped by. */
  readonly select: Selected;
  /** Per row (a category's null values when its labels are made per row). */
  readonly rowWhere: Sql | null;
  /** After grouping (a time axis's instants, a category's null values). */
  readonly groupWhere: Sql | null;
  readonly rank: Sql | null;
}

export function keyMaterial(scope: PlanScope, x: Column | null): KeyMaterial {
  const { plan, d } = scope;
  if (plan.axis === 'none' || x === null) return { reading: 'total', select: [], rowWhere: null, groupWhere: null, rank: null };
  if (plan.axis === 'time') {
    const t = instantOf(x);
    const flag = flagOf(d, x);
    return {
      reading: 'time',
      select: [[t, 'pd_t']],
      rowWhere: null,
      groupWhere: flag === null ? sql`${t} IS NOT NULL` : sql`(${flag} = 1 OR ${t} IS NOT NULL)`,
      rank: null,
    };
  }
  return labelMaterial(scope, x, 'pd_k');
}

/** The breakdown value as the engine labels it, grouped by like a category; null without a breakdown. */
export function breakdownMaterial(scope: PlanScope, b: Column | null): KeyMaterial | null {
  return b === null ? null : labelMaterial(scope, b, 'pd_b');
}

/** A value read as the engine's label of it, under `alias` (and `alias`2 for huge decimals). */
function labelMaterial(scope: PlanScope, x: Column, alias: 'pd_k' | 'pd_b'): KeyMaterial {
  const { d } = scope;
  const a = Sql.trusted(alias);
  const c = x.raw;
  const notNull = sql`${c} IS NOT NULL`;
  if (x.kind === 'instant') throw new Unsupported('labels of a timestamptz column are its ISO text, which depends on the database session zone');
  // Grouped by value, the null values are one group, dropped after grouping instead of tested on every row.
  const byValue = groupByValue(d, x);
  const material = (reading: KeyReading, select: Selected, rank: Sql | null): KeyMaterial => ({
    reading,
    select,
    rowWhere: byValue ? null : notNull,
    groupWhere: byValue ? notNull : null,
    rank,
  });
  switch (x.kind) {
    case 'float': {
      // Non-finite labels ("NaN", "Infinity") are text, which the engine orders after numbers.
      const rank = sql`${d.nonFinite('float', a)}, ${a}`;
      return material('number', [[c, alias]], scope.dialect === 'postgres' ? rank : a);
    }
    case 'bool':
      return material('bool', [[c, alias]], null);
    case 'decimal': {
      const small = scope.dialect === 'postgres' ? sql`abs(${c}) < ${TEXT_FROM}` : sql`ABS(${c}) < ${TEXT_FROM}`;
      const text = scope.dialect === 'postgres' ? sql`CAST(${c} AS text)` : sql`HEX(CAST(${c} AS CHAR))`;
      return material(
        'decimal',
        [
          [sql`CASE WHEN ${small} THEN ${d.dbl('decimal', c)} END`, alias],
          [sql`CASE WHEN NOT (${small}) THEN ${text} END`, `${alias}2`],
        ],
        // Postgres decimals may be NaN or Infinity (text labels): not ranked in SQL.
        scope.dialect === 'mysql' ? sql`COALESCE(${a}, CAST(UNHEX(${Sql.trusted(`${alias}2`)}) AS DOUBLE))` : null,
      );
    }
    default: {
      const text = d.textKey(x.kind, c)!;
      const key = scope.dialect === 'postgres' ? d.compareSpace(text) : text;
      const numeric = x.kind === 'int' || x.kind === 'bigint';
      const rank = numeric
        ? scope.dialect === 'postgres'
          ? sql`CAST(${a} AS double precision)`
          : sql`CAST(UNHEX(${a}) AS DOUBLE)`
        : x.kind === 'text'
          ? null
          : scope.dialect === 'postgres'
            ? a
            : sql`CAST(${a} AS BINARY)`;
      return material('text', [[key, alias]], rank);
    }
  }
}
