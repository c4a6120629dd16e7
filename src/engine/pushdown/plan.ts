/**
 * One chart dataset configuration as one grouped SQL query around the user's query. Stages, each
 * a derived table over the previous one (aliases are ours, so user column names never collide):
 *
 *   s0  the used columns of the user's query, renamed pd_c<i> (plus a sargable window prefilter),
 *       then the conditions that need no computed instant (still pushable into the user's query)
 *   s1  epoch/wall milliseconds of date columns (pd_m<i>) and "unsafe" flags (pd_f<i>)
 *   s2  instants of date columns (pd_t<i>): wall-clock values through the zone table
 *   s3  conditions, date window, axis filters; key material, value material, pd_u
 *   s4  day numbers for day-and-longer buckets
 *   s5  the engine's bucket key or category key (null for flagged rows)
 *   s6  GROUP BY key, pd_u with the aggregates
 *   s7  ORDER BY/LIMIT or a RANK filter, only where the engine would keep the same points
 *
 * s1 to s4 end with an optimization fence (see DialectSql.fence). A row the engine might read
 * differently from SQL is not filtered silently: it is flagged (pd_u = 1) and lands in a group of
 * its own, and resultToSeries then asks for the streaming path.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, daysFromCivil } from '../calendar.js';
import type { ResolvedCondition } from '../conditions.js';
import type { EngineContext } from '../context.js';
import { EACH, parseFieldPath } from '../field-path.js';
import type { SeriesPlan } from '../series.js';
import type { ChartType, Operation } from '../types.js';
import { columnKind, isDateKind, isNumberKind, type ColumnKind, type ResultColumn } from './columns.js';
import { conditionSql, kindName, type ConditionColumn, type ConditionEnv } from './conditions-sql.js';
import { dialectSql, type DialectSql } from './dialect.js';
import { Unsupported } from './errors.js';
import { int, join, render, sql, Sql, type CompiledQuery, type PushdownDialect, type RenderedSql } from './sql-text.js';
import { subqueryText } from './user-query.js';
import { isFixedZone, offsetTable, piecewise, wallThresholds, type OffsetTable } from './zone-offsets.js';

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
  readonly key: 'time' | 'text' | 'number' | 'bool' | 'decimal' | 'total';
  /** Text keys come back as text, or (MySQL) as hex of their UTF-8 bytes, which no collation alters. */
  readonly encoding: 'text' | 'hex';
  /** rows: COUNT(*); count: pd_v; sum: pd_s/pd_a/pd_v/pd_sc; extreme: pd_v; null: the engine skips every value. */
  readonly value: 'rows' | 'count' | 'sum' | 'extreme' | 'null';
}

export interface BuiltQuery extends RenderedSql {
  readonly reading: Reading;
}

interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly index: number;
  readonly raw: Sql;
  readonly ident: Sql;
  instant: boolean;
}

/** The zone table covers at most this much time; more would make a very long CASE. */
const MAX_COVERAGE_MS = 300 * 366 * DAY_MS;
/** Margin around windows and spans so approximate instants outside the table still compare right. */
const COVERAGE_MARGIN_MS = 3 * DAY_MS;
/** Open windows on a time axis cover from 1970 to this far after now; other rows fall back. */
const OPEN_COVERAGE_AHEAD_MS = 30 * 366 * DAY_MS;
const SAFE_FROM = daysFromCivil(2, 1, 1) * DAY_MS;
const SAFE_TO = daysFromCivil(9998, 1, 1) * DAY_MS;

const SUB_DAY: Partial<Record<string, number>> = { second: SECOND_MS, minute: MINUTE_MS, hour: HOUR_MS };
/**
 * Decimals with 16 or more integer digits reach the engine as exact text (parseDecimal). An integer
 * literal keeps the comparison exact (MySQL reads `1e15` as a double, and 999999999999999.99 would count as text).
 */
const TEXT_FROM = Sql.trusted('1000000000000000');

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

class Planner {
  private readonly d: DialectSql;
  private readonly used = new Map<string, Column>();
  private readonly spans: number[] = [];
  private readonly fixed: boolean;

  constructor(
    private readonly ctx: EngineContext,
    private readonly plans: readonly SeriesPlan[],
    private readonly plan: SeriesPlan,
    private readonly dialect: PushdownDialect,
    private readonly columns: readonly ResultColumn[] | null,
    /** `plans` are all of the chart's datasets (else ORDER BY/LIMIT is never pushed). */
    private readonly complete: boolean,
  ) {
    this.d = dialectSql(dialect);
    this.fixed = isFixedZone(ctx.clock);
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
    for (const [path, where] of [
      [xPath, 'xAxis'],
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
    const window = this.windowFilter(date);
    const key = this.keyMaterial(x);
    const value = this.valueMaterial(y);
    const coverage = this.coverage(x, date);
    if (subquery === null) return null;

    const statement = this.statement(subquery, query!, x, conditions, window, key, value, coverage);
    return {
      ...render(statement, this.dialect),
      reading: { axis: plan.axis, operation: plan.operation, key: key.reading, encoding: this.d.textKeyEncoding, value: value.reading },
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
    const column: Column = { name, kind, index, raw: Sql.trusted(`pd_c${index}`), ident, instant: false };
    this.used.set(name, column);
    return column;
  }

  private instantOf(column: Column): Sql {
    column.instant = true;
    return Sql.trusted(`pd_t${column.index}`);
  }

  private flagOf(column: Column): Sql | null {
    return this.hasFlag(column) ? Sql.trusted(`pd_f${column.index}`) : null;
  }

  private hasFlag(column: Column): boolean {
    return this.d.unsafe(column.kind, column.raw) !== null;
  }

  /** `timed` when the predicate reads instants or flags, which later stages compute. */
  private condition(condition: ResolvedCondition, env: ConditionEnv): { where: Sql; timed: boolean } {
    const column = this.column(condition.field, 'condition field');
    let timed = false;
    const ref: ConditionColumn = {
      name: column.name,
      kind: column.kind,
      value: column.raw,
      instant: () => {
        timed = true;
        return this.instantOf(column);
      },
      flag: () => {
        const flag = this.flagOf(column);
        if (flag !== null) timed = true;
        return flag;
      },
    };
    const where = conditionSql(condition, ref, env);
    return { where, timed };
  }

  // -- window --------------------------------------------------------------------------------

  private windowFilter(date: Column | null): { where: Sql | null; prefilter: Sql[] } {
    const window = this.plan.window;
    if (window === null || date === null) return { where: null, prefilter: [] };
    const t = this.instantOf(date);
    const { start, end } = window;
    if (date.kind !== 'instant') {
      if (start !== null) this.spans.push(start);
      if (end !== null) this.spans.push(end);
    }
    const parts: Sql[] = [];
    const prefilter: Sql[] = [];
    const column = sql`q.${date.ident}`;
    const safe = (v: number): boolean => v >= SAFE_FROM && v < SAFE_TO;
    if (start !== null) {
      parts.push(sql`${t} >= ${this.d.doubleParam(start)}`);
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
    const flag = this.flagOf(date);
    return { where: strict || flag === null ? sql`(${inside})` : sql`(${flag} = 1 OR (${inside}))`, prefilter };
  }

  // -- keys ----------------------------------------------------------------------------------

  private keyMaterial(x: Column | null): { reading: Reading['key']; select: Array<[Sql, string]>; where: Sql | null; rank: Sql | null } {
    const { plan, d } = this;
    if (plan.axis === 'none' || x === null) return { reading: 'total', select: [], where: null, rank: null };
    if (plan.axis === 'time') {
      const t = this.instantOf(x);
      const flag = this.flagOf(x);
      return { reading: 'time', select: [[t, 'pd_t']], where: flag === null ? sql`${t} IS NOT NULL` : sql`(${flag} = 1 OR ${t} IS NOT NULL)`, rank: null };
    }
    const c = x.raw;
    const notNull = sql`${c} IS NOT NULL`;
    switch (x.kind) {
      case 'float': {
        // Non-finite labels ("NaN", "Infinity") are text, which the engine orders after numbers.
        const rank = sql`${d.nonFinite('float', Sql.trusted('pd_k'))}, pd_k`;
        return { reading: 'number', select: [[c, 'pd_k']], where: notNull, rank: this.dialect === 'postgres' ? rank : Sql.trusted('pd_k') };
      }
      case 'bool':
        return { reading: 'bool', select: [[c, 'pd_k']], where: notNull, rank: null };
      case 'decimal': {
        const small = this.dialect === 'postgres' ? sql`abs(${c}) < ${TEXT_FROM}` : sql`ABS(${c}) < ${TEXT_FROM}`;
        const text = this.dialect === 'postgres' ? sql`CAST(${c} AS text)` : sql`HEX(CAST(${c} AS CHAR))`;
        return {
          reading: 'decimal',
          select: [
            [sql`CASE WHEN ${small} THEN ${d.dbl('decimal', c)} END`, 'pd_k'],
            [sql`CASE WHEN NOT (${small}) THEN ${text} END`, 'pd_k2'],
          ],
          where: notNull,
          // Postgres decimals may be NaN or Infinity (text labels): not ranked in SQL.
          rank: this.dialect === 'mysql' ? sql`COALESCE(pd_k, CAST(UNHEX(pd_k2) AS DOUBLE))` : null,
        };
      }
      case 'instant':
        throw new Unsupported('categories of a timestamptz column are its ISO text, which depends on the database session zone');
      default: {
        const text = d.textKey(x.kind, c)!;
        const key = this.dialect === 'postgres' ? d.compareSpace(text) : text;
        const numeric = x.kind === 'int' || x.kind === 'bigint';
        const rank = numeric
          ? this.dialect === 'postgres'
            ? Sql.trusted('CAST(pd_k AS double precision)')
            : Sql.trusted('CAST(UNHEX(pd_k) AS DOUBLE)')
          : x.kind === 'text'
            ? null
            : this.dialect === 'postgres'
              ? Sql.trusted('pd_k')
              : Sql.trusted('CAST(pd_k AS BINARY)');
        return { reading: 'text', select: [[key, 'pd_k']], where: notNull, rank };
      }
    }
  }

  // -- values --------------------------------------------------------------------------------

  private valueMaterial(y: Column | null): {
    reading: Reading['value'];
    select: Array<[Sql, string]>;
    aggregates: Array<[Sql, string]>;
    rank: Sql | null;
  } {
    const { plan, d } = this;
    const op = plan.operation;
    if (plan.aggregator.countsRows || y === null) return { reading: 'rows', select: [], aggregates: [], rank: Sql.trusted('pd_n') };
    const c = y.raw;
    const kind = y.kind;
    switch (op) {
      case 'count':
        return { reading: 'count', select: [[c, 'pd_y']], aggregates: [[Sql.trusted('COUNT(pd_y)'), 'pd_v']], rank: Sql.trusted('pd_v') };
      case 'count_unique': {
        if (kind === 'decimal') {
          const small = this.dialect === 'postgres' ? sql`abs(${c}) < ${TEXT_FROM}` : sql`ABS(${c}) < ${TEXT_FROM}`;
          const text = this.dialect === 'postgres' ? sql`CAST(${c} AS text)` : sql`CAST(${c} AS CHAR)`;
          return {
            reading: 'count',
            select: [
              [sql`CASE WHEN ${small} THEN ${d.dbl('decimal', c)} END`, 'pd_y'],
              [sql`CASE WHEN NOT (${small}) THEN ${text} END`, 'pd_y2'],
            ],
            aggregates: [[Sql.trusted('COUNT(DISTINCT pd_y) + COUNT(DISTINCT pd_y2)'), 'pd_v']],
            rank: Sql.trusted('pd_v'),
          };
        }
        const distinct = d.distinctValue(kind, c);
        if (distinct === null) {
          throw new Unsupported(`count_unique on a ${kindName(kind)} column counts distinct JavaScript texts, which depend on the database session zone`);
        }
        return { reading: 'count', select: [[distinct, 'pd_y']], aggregates: [[Sql.trusted('COUNT(DISTINCT pd_y)'), 'pd_v']], rank: Sql.trusted('pd_v') };
      }
      case 'sum':
      case 'avg':
      case 'min':
      case 'max': {
        // Booleans and dates are never numbers for the engine: the group exists, its value is null.
        if (kind === 'bool' || isDateKind(kind)) return { reading: 'null', select: [], aggregates: [], rank: null };
        if (kind === 'text') throw new Unsupported(`"${op}" on a text column parses numbers out of text`);
        if (!isNumberKind(kind)) throw new Unsupported(`"${op}" on a ${kindName(kind)} column`);
        const finite = sql`CASE WHEN ${d.nonFinite(kind, c)} THEN NULL ELSE ${op === 'min' || op === 'max' ? c : d.exactNumber(kind, c)} END`;
        if (op === 'min' || op === 'max') {
          const fn = op === 'min' ? 'MIN' : 'MAX';
          const rank = this.dialect === 'postgres' ? Sql.trusted('CAST(pd_v AS double precision)') : Sql.trusted('CAST(pd_v AS DOUBLE)');
          return { reading: 'extreme', select: [[finite, 'pd_y']], aggregates: [[Sql.trusted(`${fn}(pd_y)`), 'pd_v']], rank };
        }
        if (kind === 'float') {
          throw new Unsupported(`"${op}" of a floating-point column depends on the order of additions; the engine's compensated, rounded sum has no SQL equivalent`);
        }
        return {
          reading: 'sum',
          select: [
            [finite, 'pd_y'],
            [d.scale(kind, c), 'pd_ys'],
          ],
          aggregates: [
            [Sql.trusted('SUM(pd_y)'), 'pd_s'],
            [Sql.trusted('SUM(ABS(pd_y))'), 'pd_a'],
            [Sql.trusted('COUNT(pd_y)'), 'pd_v'],
            [Sql.trusted('MAX(pd_ys)'), 'pd_sc'],
          ],
          rank: op === 'sum' ? (this.dialect === 'postgres' ? Sql.trusted('CAST(pd_s AS double precision)') : Sql.trusted('CAST(pd_s AS DOUBLE)')) : null,
        };
      }
      default:
        throw new Unsupported(`operation "${op}"`);
    }
  }

  // -- zone ----------------------------------------------------------------------------------

  /** The zone table, when offsets vary and something needs them; with the span it is exact for. */
  private coverage(x: Column | null, date: Column | null): { table: OffsetTable; from: number; to: number } | null {
    const timeAxis = x !== null && this.plan.axis === 'time';
    const needsWall = [...this.used.values()].some((c) => c.instant && c.kind !== 'instant');
    if (this.fixed || (!timeAxis && !needsWall)) return null;
    const points = [...this.spans];
    if (timeAxis || points.length === 0) {
      // The bucketed column is bounded by the window only when the window is on that column.
      const window = date === x ? this.plan.window : null;
      const now = (this.ctx.chart.now ?? new Date()).getTime();
      points.push(window?.start ?? Date.UTC(1970, 0, 1), window?.end ?? now + OPEN_COVERAGE_AHEAD_MS);
      if (this.plan.window?.start != null) points.push(this.plan.window.start);
      if (this.plan.window?.end != null) points.push(this.plan.window.end);
    }
    const from = Math.floor((Math.min(...points) - COVERAGE_MARGIN_MS) / DAY_MS) * DAY_MS;
    const to = Math.ceil((Math.max(...points) + COVERAGE_MARGIN_MS) / DAY_MS) * DAY_MS;
    if (!(to - from <= MAX_COVERAGE_MS)) {
      throw new Unsupported(`the dates involved span more than 300 years, too long a table of ${this.ctx.clock.name} offsets to write into SQL`);
    }
    return { table: offsetTable(this.ctx.clock, from - 2 * DAY_MS, to + 2 * DAY_MS), from, to };
  }

  private offsetOf(instant: Sql, coverage: { table: OffsetTable } | null): Sql {
    if (coverage === null) return int(this.ctx.clock.offsetMs(0));
    return piecewise(instant, coverage.table.transitions, coverage.table.offsets);
  }

  private wallOffsetOf(wall: Sql, coverage: { table: OffsetTable } | null): Sql {
    if (coverage === null) return int(this.ctx.clock.offsetMs(0));
    const thresholds = wallThresholds(coverage.table);
    if (thresholds === null) throw new Unsupported(`${this.ctx.clock.name} changes its offset twice within a day in this period`);
    return piecewise(wall, thresholds, coverage.table.offsets);
  }

  // -- statement -----------------------------------------------------------------------------

  private statement(
    subquery: string,
    query: CompiledQuery,
    x: Column | null,
    conditions: Array<{ where: Sql; timed: boolean }>,
    window: { where: Sql | null; prefilter: Sql[] },
    key: ReturnType<Planner['keyMaterial']>,
    value: ReturnType<Planner['valueMaterial']>,
    coverage: ReturnType<Planner['coverage']>,
  ): Sql {
    const { d, plan } = this;
    const columns = [...this.used.values()];
    const userQuery = Sql.query({ text: subquery, values: query.values });

    // s0: the used columns, renamed.
    // A count of rows reads no column; MySQL needs something in the select list.
    const s0Select =
      columns.length === 0
        ? Sql.trusted('1 AS pd_one')
        : join(
            columns.map((c) => sql`q.${c.ident} AS ${c.raw}`),
            ', ',
          );
    let stage = sql`SELECT ${s0Select} FROM (\n${userQuery}\n) AS q`;
    if (window.prefilter.length > 0) stage = sql`${stage} WHERE ${join(window.prefilter, ' AND ')}`;
    // Conditions on plain values stay below the fences, where the optimizer can push them into the user's query.
    const plain = conditions.filter((c) => !c.timed).map((c) => c.where);
    if (key.reading !== 'time' && key.where !== null) plain.push(key.where);
    if (plain.length > 0) stage = sql`SELECT pd_sa.* FROM (${stage}) AS pd_sa WHERE ${join(plain, ' AND ')}`;

    // s1, s2: milliseconds, flags, instants.
    const flagged = columns.filter((c) => this.hasFlag(c));
    const timed = columns.filter((c) => c.instant);
    if (flagged.length > 0 || timed.length > 0) {
      const extra: Sql[] = [];
      for (const c of timed) extra.push(sql`${d.millis(c.kind as 'instant' | 'wall' | 'date', c.raw)} AS ${Sql.trusted(`pd_m${c.index}`)}`);
      for (const c of flagged) extra.push(sql`${d.flag(d.unsafe(c.kind, c.raw)!)} AS ${Sql.trusted(`pd_f${c.index}`)}`);
      stage = sql`SELECT pd_s0.*, ${join(extra, ', ')} FROM (${stage}) AS pd_s0${d.fence}`;
      if (timed.length > 0) {
        const instants = timed.map((c) => {
          const m = Sql.trusted(`pd_m${c.index}`);
          const t = c.kind === 'instant' ? m : sql`${m} - ${this.wallOffsetOf(m, coverage)}`;
          return sql`${t} AS ${Sql.trusted(`pd_t${c.index}`)}`;
        });
        stage = sql`SELECT pd_s1.*, ${join(instants, ', ')} FROM (${stage}) AS pd_s1${d.fence}`;
      }
    }

    // s3: filters; key and value material; the fallback flag.
    const where = conditions.filter((c) => c.timed).map((c) => c.where);
    if (window.where !== null) where.push(window.where);
    if (key.reading === 'time' && key.where !== null) where.push(key.where);
    const unsafe: Sql[] = flagged.map((c) => sql`${Sql.trusted(`pd_f${c.index}`)} = 1`);
    const s3: Array<[Sql, string]> = [...key.select, ...value.select];
    if (key.reading === 'time') {
      const t = Sql.trusted(`pd_t${x!.index}`);
      s3.push([sql`${t} + ${this.offsetOf(t, coverage)}`, 'pd_l']);
      if (coverage !== null) {
        // Outside the table's exact span the offsets are extrapolated: such rows fall back.
        unsafe.push(sql`(${t} IS NOT NULL AND NOT (${t} >= ${int(coverage.from + DAY_MS)} AND ${t} < ${int(coverage.to - DAY_MS)}))`);
      }
    }
    s3.push([unsafe.length === 0 ? int(0) : d.flag(join(unsafe, ' OR ')), 'pd_u']);
    const filter = where.length > 0 ? sql` WHERE ${join(where, ' AND ')}` : Sql.trusted('');
    stage = sql`SELECT ${selectList(s3)} FROM (${stage}) AS pd_s2${filter}${d.fence}`;

    // s4, s5: keys.
    const passValues = [...value.select.map(([, alias]) => alias), 'pd_u'];
    if (key.reading === 'time') {
      const bucketer = plan.bucketer!;
      const size = SUB_DAY[bucketer.interval];
      const l = Sql.trusted('pd_l');
      let keyExpr: Sql;
      if (size !== undefined) {
        keyExpr = sql`pd_t - ${d.floorMod(l, size)}`;
      } else if (bucketer.interval === 'day') {
        keyExpr = sql`pd_l - ${d.floorMod(l, DAY_MS)}`;
      } else {
        const dayNumber = d.exactDiv(sql`pd_l - ${d.floorMod(l, DAY_MS)}`, DAY_MS);
        stage = sql`SELECT ${selectList([[dayNumber, 'pd_d'], ...passThrough(passValues)])} FROM (${stage}) AS pd_s3${d.fence}`;
        const days = Sql.trusted('pd_d');
        keyExpr =
          bucketer.interval === 'week'
            ? sql`(pd_d - ${d.floorMod(sql`pd_d + 3`, 7)}) * ${int(DAY_MS)}`
            : bucketer.interval === 'month'
              ? sql`(pd_d - ${d.dayOfMonth(days)} + 1) * ${int(DAY_MS)}`
              : sql`(pd_d - ${d.dayOfYear(days)} + 1) * ${int(DAY_MS)}`;
      }
      const typed = this.dialect === 'postgres' ? sql`CAST(${keyExpr} AS bigint)` : sql`CAST(${keyExpr} AS SIGNED)`;
      const keyed: Array<[Sql, string]> = [[sql`CASE WHEN pd_u = 1 THEN NULL ELSE ${typed} END`, 'pd_k'], ...passThrough(passValues)];
      stage = sql`SELECT ${selectList(keyed)} FROM (${stage}) AS pd_s4`;
    } else if (key.select.length > 0) {
      const keys = key.select.map(([, alias]): [Sql, string] => [sql`CASE WHEN pd_u = 1 THEN NULL ELSE ${Sql.trusted(alias)} END`, alias]);
      stage = sql`SELECT ${selectList([...keys, ...passThrough(passValues)])} FROM (${stage}) AS pd_s4`;
    }

    // s6: groups.
    const keyAliases = key.reading === 'time' ? ['pd_k'] : key.select.map(([, alias]) => alias);
    const groupBy = [...keyAliases, 'pd_u'];
    const aggregates: Array<[Sql, string]> = [
      ...passThrough(keyAliases),
      [Sql.trusted('pd_u'), 'pd_u'],
      [Sql.trusted('COUNT(*)'), 'pd_n'],
      ...value.aggregates,
    ];
    stage = sql`SELECT ${selectList(aggregates)} FROM (${stage}) AS pd_s5 GROUP BY ${Sql.trusted(groupBy.join(', '))}`;

    return this.limited(stage, key, value);
  }

  /** s7: ORDER BY/LIMIT or RANK, only where the engine would keep exactly these points. */
  private limited(stage: Sql, key: ReturnType<Planner['keyMaterial']>, value: ReturnType<Planner['valueMaterial']>): Sql {
    const { plan, plans, ctx } = this;
    // Sort and maxRecords act on the axis shared by every dataset; with one dataset it is this one.
    if (!this.complete || plans.length !== 1 || plan.maxRecords === null || ctx.cumulative || ctx.type === 'matrix') return stage;
    const limit = plan.maxRecords;
    if (!Number.isSafeInteger(limit + 1)) return stage;
    if (key.reading === 'time') {
      // The last N buckets in time; gap filling would add buckets, so not with includeZeros.
      if (ctx.chart.includeZeros === true) return stage;
      return sql`SELECT * FROM (${stage}) AS pd_s6 ORDER BY pd_u DESC, pd_k DESC${this.d.limit(limit + 1)}`;
    }
    if (plan.axis !== 'category') return stage;
    const sorts = plan.sort !== null && PUSHDOWN_SORTABLE.has(ctx.type);
    let order: Sql | null;
    if (sorts) {
      // The engine sorts by the plotted value (formula applied; missing → 0), ties in axis order.
      if (plan.formula !== null || value.rank === null) return stage;
      order = sql`COALESCE(${value.rank}, 0) ${Sql.trusted(plan.sort === 'asc' ? 'ASC' : 'DESC')}`;
    } else {
      // The first N labels in axis order: numbers by value, or ISO texts.
      if (key.rank === null) return stage;
      order = key.rank;
    }
    // RANK keeps every row tied with the Nth, so the engine's own tie-breaking still decides.
    return sql`SELECT * FROM (SELECT pd_s6.*, RANK() OVER (ORDER BY ${order}) AS pd_r FROM (${stage}) AS pd_s6) AS pd_s7 WHERE pd_r <= ${int(limit)} OR pd_u = 1`;
  }
}

const PUSHDOWN_SORTABLE: ReadonlySet<ChartType> = new Set(['line', 'bar', 'pie', 'doughnut', 'radar', 'polar']);

/** Our own aliases carried up unchanged. */
function passThrough(aliases: readonly string[]): Array<[Sql, string]> {
  return aliases.map((alias) => [Sql.trusted(alias), alias]);
}

function selectList(items: ReadonlyArray<readonly [Sql, string]>): Sql {
  return join(
    items.map(([expr, alias]) => sql`${expr} AS ${Sql.trusted(alias)}`),
    ', ',
  );
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
