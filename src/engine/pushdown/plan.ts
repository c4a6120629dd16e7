/**
 * One chart dataset configuration as one grouped SQL query around the user's query, in two
 * levels (aliases are ours, so user column names never collide).
 *
 * Rows: the used columns of the user's query, renamed pd_c<i> (plus a sargable window prefilter),
 * filtered by the conditions that need no instant, and grouped by cheap keys only: the values
 * that labels or distinct values are made of, and for date-times read as instants a cell of
 * their time (a day, an hour, …) that no bucket edge, zone offset change, window bound or
 * condition bound cuts, so every row of a cell gives the same answer. The aggregates there are
 * plain ones (COUNT, SUM, MIN, MAX); checks that would cost a little on every row are made on
 * what they aggregate instead.
 *
 * Groups: the rest runs once per group, with the same expressions a row would have used:
 *   g0  the cell's first value, of the column's type
 *   g1  epoch/wall milliseconds of date columns (pd_m<i>) and "unsafe" flags (pd_f<i>)
 *   g2  instants of date columns (pd_t<i>): wall-clock values through the zone table
 *   g3  conditions on instants, date window, axis filters; key material, value material, pd_u
 *   g4  day numbers for day-and-longer buckets
 *   g5  the engine's bucket key or category key, and the breakdown value's (null for flagged groups)
 *   g6  GROUP BY key, breakdown key, pd_u, adding up the row-level aggregates
 *   g7  ORDER BY/LIMIT or a RANK filter, only where the engine would keep the same points
 *
 * g1 to g4 end with an optimization fence (see DialectSql.fence). A row the engine might read
 * differently from SQL is not filtered silently: its group is flagged (pd_u = 1) and lands in a
 * group of its own, and resultToSeries then asks for the streaming path.
 */
import { DAY_MS } from '../calendar.js';
import type { ResolvedCondition } from '../conditions.js';
import type { EngineContext } from '../context.js';
import { EACH, parseFieldPath } from '../field-path.js';
import type { SeriesPlan } from '../series.js';
import type { ChartType, Operation } from '../types.js';
import { columnKind, isDateKind, type ResultColumn } from './columns.js';
import { conditionSql, kindName, type ConditionColumn, type ConditionEnv } from './conditions-sql.js';
import { dialectSql, type DialectSql } from './dialect.js';
import { Unsupported } from './errors.js';
import { breakdownMaterial, keyMaterial, type KeyReading } from './plan-keys.js';
import { flagOf, groupByValue, instantOf, type Column, type PlanScope } from './plan-scope.js';
import { groupedStatement, type Condition } from './plan-statement.js';
import { valueMaterial, type ValueReading } from './plan-values.js';
import { SAFE_FROM, SAFE_TO, zoneCoverage } from './plan-zone.js';
import { join, render, sql, Sql, type CompiledQuery, type PushdownDialect, type RenderedSql } from './sql-text.js';
import { subqueryText } from './user-query.js';

export const PUSHDOWN_CHART_TYPES: ReadonlySet<ChartType> = new Set([
  'line',
  'bar',
  'pie',
  'doughnut',
  'radar',
  'polar',
  'kpi',
  'avg',
  'gauge',
  'matrix',
]);

/** How resultToSeries reads the grouped rows back. */
export interface Reading {
  readonly axis: SeriesPlan['axis'];
  readonly operation: Operation;
  readonly key: KeyReading;
  /** How the breakdown value comes back (`pd_b`, `pd_b2`); null without a breakdown. */
  readonly breakdown: KeyReading | null;
  /** Text keys come back as text, or (MySQL) as hex of their UTF-8 bytes, which no collation alters. */
  readonly encoding: 'text' | 'hex';
  /**
   * rows: COUNT(*); count: pd_v; sum: pd_s/pd_a/pd_v/pd_sc (pd_v: the number of values for an
   * average, else only whether there are any); extreme: pd_v; null: the engine skips every value.
   */
  readonly value: ValueReading;
}

export interface BuiltQuery extends RenderedSql {
  readonly reading: Reading;
}

/**
 * Builds the grouped query for `plans[index]`, or throws Unsupported with the reason it cannot be
 * exact. Without `query`, only checks (the user's query is not known yet).
 */
export function buildSeriesQuery(
  ctx: EngineContext,
  plans: readonly SeriesPlan[],
  index: number,
  dialect: PushdownDialect,
  columns: readonly ResultColumn[] | null,
  query: CompiledQuery | null,
  complete: boolean,
): BuiltQuery | null {
  const plan = plans[index];
  if (!plan) throw new RangeError(`no dataset ${index}`);
  return new Planner(ctx, plans, plan, dialect, columns, complete).build(query);
}

class Planner implements PlanScope {
  readonly d: DialectSql;
  private readonly used = new Map<string, Column>();
  private readonly spans: number[] = [];
  /** Cheap row filters implied by date conditions (see conditionPrefilter). */
  private readonly prefilters: Sql[] = [];

  constructor(
    readonly ctx: EngineContext,
    readonly plans: readonly SeriesPlan[],
    readonly plan: SeriesPlan,
    readonly dialect: PushdownDialect,
    private readonly columns: readonly ResultColumn[] | null,
    readonly complete: boolean,
  ) {
    this.d = dialectSql(dialect);
  }

  build(query: CompiledQuery | null): BuiltQuery | null {
    const { ctx, plan } = this;
    if (!PUSHDOWN_CHART_TYPES.has(ctx.type)) throw new Unsupported(`${ctx.type} charts return rows or text, not aggregated points`);
    if (plan.operation === 'none') {
      throw new Unsupported('"none" plots the last value of each group in row order, which a grouped query does not keep');
    }
    // Field paths must be top-level columns; checked before anything needs a column type.
    const xPath = plan.axis === 'none' ? null : plan.fields.x;
    const yPath = plan.aggregator.countsRows ? null : plan.fields.y;
    const datePath = plan.window !== null ? plan.fields.date : null;
    const breakdownPath = plan.fields.breakdown;
    for (const [path, where] of [
      [xPath, 'xAxis'],
      [breakdownPath, 'breakdown'],
      [yPath, 'yAxis'],
      [datePath, 'dateField'],
      ...plan.conditions.map((c, i) => [c.field, `conditions[${i}].field`] as const),
    ] as const) {
      if (path !== null) topLevelName(path, where);
    }
    let subquery: string | null = null;
    if (query !== null) {
      const checked = subqueryText(query.text, this.dialect);
      if (!checked.ok) throw new Unsupported(checked.reason);
      subquery = checked.text;
    }
    if (this.columns === null) return null;

    const x = xPath === null ? null : this.column(xPath, 'xAxis');
    const y = yPath === null ? null : this.column(yPath, 'yAxis');
    const date = datePath === null ? null : this.column(datePath, 'dateField');
    const b = breakdownPath === null ? null : this.column(breakdownPath, 'breakdown');
    if (plan.axis === 'time' && !isDateKind(x!.kind)) {
      throw new Unsupported(`a time axis on a ${kindName(x!.kind)} column reads it as epoch numbers or parses text; only date and timestamp columns are bucketed in SQL`);
    }
    if (date !== null && !isDateKind(date.kind)) {
      throw new Unsupported(`the date window on a ${kindName(date.kind)} column parses dates out of its values; only date and timestamp columns are filtered in SQL`);
    }

    const env: ConditionEnv = {
      dialect: this.d,
      clock: ctx.clock,
      noteSpan: (start, end) => this.spans.push(start, end),
    };
    const conditions = plan.conditions.map((c) => this.condition(c, env));
    const dated = this.windowFilter(date);
    const window = { where: dated.where, prefilter: [...dated.prefilter, ...this.prefilters] };
    const key = keyMaterial(this, x);
    const split = breakdownMaterial(this, b);
    const value = valueMaterial(this, y);
    const coverage = zoneCoverage(this, [...this.used.values()], this.spans, x, date);
    if (subquery === null) return null;

    const built = groupedStatement(this, [...this.used.values()], subquery, query!, x, y, conditions, window, key, value, coverage, b, split);
    return {
      ...render(built, this.dialect),
      reading: {
        axis: plan.axis,
        operation: plan.operation,
        key: key.reading,
        breakdown: split?.reading ?? null,
        encoding: this.d.textKeyEncoding,
        value: value.reading,
      },
    };
  }

  // -- columns -------------------------------------------------------------------------------

  private column(path: string, where: string): Column {
    const name = topLevelName(path, where);
    const existing = this.used.get(name);
    if (existing) return existing;
    const matches = this.columns!.filter((c) => (this.dialect === 'mysql' ? c.name.toLowerCase() === name.toLowerCase() : c.name === name));
    const exact = matches.filter((c) => c.name === name);
    if (exact.length === 0) throw new Unsupported(`the query has no column "${name}" (${where})`);
    if (matches.length > 1) throw new Unsupported(`the query returns more than one column named "${name}"`);
    const kind = columnKind(exact[0]!, this.dialect);
    if (kind === null) {
      throw new Unsupported(`column "${name}" has type ${exact[0]!.sourceType ?? exact[0]!.type ?? 'unknown'}, which the engine reads in a way SQL does not reproduce exactly`);
    }
    const ident = this.d.ident(name);
    if (ident === null) throw new Unsupported(`column name "${name}" cannot be quoted safely for ${this.dialect}`);
    const index = this.used.size;
    const column: Column = { name, kind, index, raw: Sql.trusted(`pd_c${index}`), ident, instant: false, exact: false, bounds: [], rowFlag: false };
    this.used.set(name, column);
    return column;
  }

  private condition(condition: ResolvedCondition, env: ConditionEnv): Condition {
    const column = this.column(condition.field, 'condition field');
    const use = { instant: false, flag: false, text: false };
    const bounds: number[] = [];
    const spans: Array<{ start: number; end: number }> = [];
    const ref: ConditionColumn = {
      name: column.name,
      kind: column.kind,
      value: column.raw,
      instant: (at) => {
        use.instant = true;
        bounds.push(...at);
        return Sql.trusted(`pd_t${column.index}`);
      },
      flag: () => {
        const flag = flagOf(this.d, column);
        if (flag !== null) use.flag = true;
        return flag;
      },
      sourceText: () => {
        use.text = true;
        return this.d.sourceText(column.kind, column.raw);
      },
      spanCompared: (span) => spans.push(span),
    };
    const where = conditionSql(condition, ref, env);
    // A condition already tested on every row (a timestamptz against whole milliseconds) needs none.
    const prefilter = use.instant ? this.conditionPrefilter(condition, column, spans) : null;
    if (prefilter !== null) this.prefilters.push(prefilter);
    if (use.instant) {
      instantOf(column);
      // Predicates `t < b` and `t >= b` change at the first whole millisecond from b.
      column.bounds.push(...bounds.map((b) => Math.ceil(b)));
      // Text compared after grouping needs the value itself, not its cell.
      if (use.text && !groupByValue(this.d, column)) throw new Unsupported(`a condition on "${column.name}" compares both its text and its instant`);
    } else if (use.flag) {
      column.rowFlag = true;
    }
    return { where, grouped: use.instant };
  }

  /**
   * A date condition is evaluated on instants after grouping, so without more every row of the
   * user's query would be grouped before most are left out (a dashboard's date filter keeps a few
   * weeks of years of rows). When the condition keeps only instants from `lo` or before `hi`, the
   * rows are also filtered on the column itself, as the window's prefilter does: a day wider for
   * wall-clock values and dates (their instants depend on the zone), exact for timestamptz.
   * Rows the engine may read differently (DialectSql.unsafe) always pass, so that their groups are
   * still flagged. Null when the condition implies no such range (lists, negations, text, numbers).
   */
  private conditionPrefilter(condition: ResolvedCondition, column: Column, spans: ReadonlyArray<{ start: number; end: number }>): Sql | null {
    if (spans.length !== 1 || Array.isArray(condition.value) || !isDateKind(column.kind)) return null;
    const span = spans[0]!;
    let lo: number | null = null;
    let hi: number | null = null;
    switch (condition.operator) {
      case 'is':
        [lo, hi] = [span.start, span.end];
        break;
      case 'greaterThan':
        lo = span.end;
        break;
      case 'greaterOrEqual':
        lo = span.start;
        break;
      case 'lessThan':
        hi = span.start;
        break;
      case 'lessOrEqual':
        hi = span.end;
        break;
      default:
        return null;
    }
    const safe = (v: number | null): v is number => v !== null && Number.isFinite(v) && v >= SAFE_FROM && v < SAFE_TO;
    const x = column.ident;
    const parts: Sql[] = [];
    if (safe(lo)) {
      parts.push(
        column.kind === 'instant'
          ? sql`${x} >= CAST(${Sql.param(new Date(Math.floor(lo)).toISOString())} AS timestamptz)`
          : sql`${x} >= ${this.d.wallParam(Math.floor(lo) - DAY_MS)}`,
      );
    }
    if (safe(hi)) {
      parts.push(
        column.kind === 'instant'
          ? sql`${x} < CAST(${Sql.param(new Date(Math.ceil(hi)).toISOString())} AS timestamptz)`
          : sql`${x} <= ${this.d.wallParam(Math.ceil(hi) + DAY_MS)}`,
      );
    }
    if (parts.length === 0) return null;
    const inside = join(parts, ' AND ');
    const unsafe = this.d.unsafe(column.kind, x);
    return unsafe === null ? sql`(${inside})` : sql`(${unsafe} OR (${inside}))`;
  }

  // -- window --------------------------------------------------------------------------------

  private windowFilter(date: Column | null): { where: Sql | null; prefilter: Sql[] } {
    const window = this.plan.window;
    if (window === null || date === null) return { where: null, prefilter: [] };
    const t = instantOf(date);
    const { start, end } = window;
    if (date.kind !== 'instant') {
      if (start !== null) this.spans.push(start);
      if (end !== null) this.spans.push(end);
    }
    const parts: Sql[] = [];
    const prefilter: Sql[] = [];
    const column = date.ident;
    const safe = (v: number): boolean => v >= SAFE_FROM && v < SAFE_TO;
    if (start !== null) {
      parts.push(sql`${t} >= ${this.d.doubleParam(start)}`);
      date.bounds.push(Math.ceil(start));
      if (safe(start)) {
        prefilter.push(
          date.kind === 'instant'
            ? sql`${column} >= CAST(${Sql.param(new Date(start).toISOString())} AS timestamptz)`
            : sql`${column} >= ${this.d.wallParam(start - DAY_MS)}`,
        );
      }
    }
    if (end !== null) {
      parts.push(sql`${t} <= ${this.d.doubleParam(end)}`);
      date.bounds.push(Math.floor(end) + 1);
      if (safe(end)) {
        prefilter.push(
          date.kind === 'instant'
            ? sql`${column} < CAST(${Sql.param(new Date(end + 1).toISOString())} AS timestamptz)`
            : sql`${column} <= ${this.d.wallParam(end + DAY_MS)}`,
        );
      }
    }
    const inside = join(parts, ' AND ');
    // A bounded window inside years 2–9998 leaves out every row the engine cannot read (or reads
    // as year 1 or 9999), as the engine does; an open side could take them in, so they are flagged.
    const strict = start !== null && end !== null && safe(start) && safe(end);
    const flag = flagOf(this.d, date);
    return { where: strict || flag === null ? sql`(${inside})` : sql`(${flag} = 1 OR (${inside}))`, prefilter };
  }
}

/** The column a top-level field path names (`root[].amount`, `amount`); nested paths are refused. */
function topLevelName(path: string, where: string): string {
  let segments;
  try {
    segments = parseFieldPath(path);
  } catch {
    throw new Unsupported(`${where} "${path}" is not a valid field path`);
  }
  if (segments.length !== 1 || segments[0] === EACH) {
    throw new Unsupported(`${where} "${path}" is not a top-level column; nested paths and arrays are read by the streaming engine`);
  }
  return segments[0] as string;
}
