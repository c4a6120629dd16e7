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
 *   g5  the engine's bucket key or category key (null for flagged groups)
 *   g6  GROUP BY key, pd_u, adding up the row-level aggregates
 *   g7  ORDER BY/LIMIT or a RANK filter, only where the engine would keep the same points
 *
 * g1 to g4 end with an optimization fence (see DialectSql.fence). A row the engine might read
 * differently from SQL is not filtered silently: its group is flagged (pd_u = 1) and lands in a
 * group of its own, and resultToSeries then asks for the streaming path.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, daysFromCivil } from '../calendar.js';
import type { ResolvedCondition } from '../conditions.js';
import type { EngineContext } from '../context.js';
import { EACH, parseFieldPath } from '../field-path.js';
import type { SeriesPlan } from '../series.js';
import type { ChartType, Operation } from '../types.js';
import { columnKind, isDateKind, isNumberKind, type ColumnKind, type ResultColumn } from './columns.js';
import { conditionSql, kindName, type ConditionColumn, type ConditionEnv } from './conditions-sql.js';
import { dialectSql, type Cell, type DialectSql } from './dialect.js';
import { Unsupported } from './errors.js';
import { int, join, render, sql, Sql, type CompiledQuery, type PushdownDialect, type RenderedSql } from './sql-text.js';
import { subqueryText } from './user-query.js';
import { isFixedZone, offsetTable, wallThresholds, type OffsetTable } from './zone-offsets.js';

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
  /**
   * rows: COUNT(*); count: pd_v; sum: pd_s/pd_a/pd_v/pd_sc (pd_v: the number of values for an
   * average, else only whether there are any); extreme: pd_v; null: the engine skips every value.
   */
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
  /** Its instant is read after grouping (time axis, window, date conditions). */
  instant: boolean;
  /** Its value is read after grouping as it is (labels, distinct values, text conditions with instants). */
  exact: boolean;
  /** Instants at which a predicate on its instant changes (`t < bound`): cells must not straddle them. */
  readonly bounds: number[];
  /** A row-level condition reads its flag. */
  rowFlag: boolean;
}

interface Condition {
  readonly where: Sql;
  /** Reads instants, so it is evaluated after grouping. */
  readonly grouped: boolean;
}

type Selected = Array<[Sql, string]>;

interface KeyMaterial {
  readonly reading: Reading['key'];
  /** Expressions of the x value: computed per group when x is grouped by its value, else per row and grouped by. */
  readonly select: Selected;
  /** Per row (a category's null values when its labels are made per row). */
  readonly rowWhere: Sql | null;
  /** After grouping (a time axis's instants, a category's null values). */
  readonly groupWhere: Sql | null;
  readonly rank: Sql | null;
}

interface ValueMaterial {
  readonly reading: Reading['value'];
  /** count_unique: expressions of the y value, placed like KeyMaterial.select. */
  readonly distinct: Selected;
  readonly rowAggregates: Selected;
  /** Per group, from the row-level aggregates. */
  readonly groupSelect: Selected;
  /** Per group: true when the aggregates hold a value the engine reads differently. */
  readonly flags: Sql[];
  readonly finalAggregates: Selected;
  readonly rank: Sql | null;
}

/** The zone table covers at most this much time; more would make a very long query. */
const MAX_COVERAGE_MS = 300 * 366 * DAY_MS;
/** Margin around windows and spans so approximate instants outside the table still compare right. */
const COVERAGE_MARGIN_MS = 3 * DAY_MS;
/** Open windows on a time axis cover from 1970 to this far after now; other rows fall back. */
const OPEN_COVERAGE_AHEAD_MS = 30 * 366 * DAY_MS;
const SAFE_FROM = daysFromCivil(2, 1, 1) * DAY_MS;
const SAFE_TO = daysFromCivil(9998, 1, 1) * DAY_MS;
/** Instants a cell may be cut at; more shorten the cells instead. */
const MAX_SPLITS = 512;

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

    const statement = this.statement(subquery, query!, x, y, conditions, window, key, value, coverage);
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
    const column: Column = { name, kind, index, raw: Sql.trusted(`pd_c${index}`), ident, instant: false, exact: false, bounds: [], rowFlag: false };
    this.used.set(name, column);
    return column;
  }

  private instantOf(column: Column): Sql {
    column.instant = true;
    return Sql.trusted(`pd_t${column.index}`);
  }

  private flagOf(column: Column): Sql | null {
    return this.hasFlag(column) ? flagName(column) : null;
  }

  private hasFlag(column: Column): boolean {
    return this.d.unsafe(column.kind, column.raw) !== null;
  }

  /** The column is grouped by its value, so expressions of it can wait for the groups. */
  private groupByValue(column: Column): boolean {
    if (this.d.groupKeys(column.kind, column.raw) === null) return false;
    column.exact = true;
    return true;
  }

  private condition(condition: ResolvedCondition, env: ConditionEnv): Condition {
    const column = this.column(condition.field, 'condition field');
    const use = { instant: false, flag: false, text: false };
    const bounds: number[] = [];
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
        const flag = this.flagOf(column);
        if (flag !== null) use.flag = true;
        return flag;
      },
      sourceText: () => {
        use.text = true;
        return this.d.sourceText(column.kind, column.raw);
      },
    };
    const where = conditionSql(condition, ref, env);
    if (use.instant) {
      this.instantOf(column);
      // Predicates `t < b` and `t >= b` change at the first whole millisecond from b.
      column.bounds.push(...bounds.map((b) => Math.ceil(b)));
      // Text compared after grouping needs the value itself, not its cell.
      if (use.text && !this.groupByValue(column)) throw new Unsupported(`a condition on "${column.name}" compares both its text and its instant`);
    } else if (use.flag) {
      column.rowFlag = true;
    }
    return { where, grouped: use.instant };
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
    const flag = this.flagOf(date);
    return { where: strict || flag === null ? sql`(${inside})` : sql`(${flag} = 1 OR (${inside}))`, prefilter };
  }

  // -- keys ----------------------------------------------------------------------------------

  private keyMaterial(x: Column | null): KeyMaterial {
    const { plan, d } = this;
    if (plan.axis === 'none' || x === null) return { reading: 'total', select: [], rowWhere: null, groupWhere: null, rank: null };
    if (plan.axis === 'time') {
      const t = this.instantOf(x);
      const flag = this.flagOf(x);
      return {
        reading: 'time',
        select: [[t, 'pd_t']],
        rowWhere: null,
        groupWhere: flag === null ? sql`${t} IS NOT NULL` : sql`(${flag} = 1 OR ${t} IS NOT NULL)`,
        rank: null,
      };
    }
    const c = x.raw;
    const notNull = sql`${c} IS NOT NULL`;
    if (x.kind === 'instant') throw new Unsupported('categories of a timestamptz column are its ISO text, which depends on the database session zone');
    // Grouped by value, the null values are one group, dropped after grouping instead of tested on every row.
    const byValue = this.groupByValue(x);
    const material = (reading: Reading['key'], select: Selected, rank: Sql | null): KeyMaterial => ({
      reading,
      select,
      rowWhere: byValue ? null : notNull,
      groupWhere: byValue ? notNull : null,
      rank,
    });
    switch (x.kind) {
      case 'float': {
        // Non-finite labels ("NaN", "Infinity") are text, which the engine orders after numbers.
        const rank = sql`${d.nonFinite('float', Sql.trusted('pd_k'))}, pd_k`;
        return material('number', [[c, 'pd_k']], this.dialect === 'postgres' ? rank : Sql.trusted('pd_k'));
      }
      case 'bool':
        return material('bool', [[c, 'pd_k']], null);
      case 'decimal': {
        const small = this.dialect === 'postgres' ? sql`abs(${c}) < ${TEXT_FROM}` : sql`ABS(${c}) < ${TEXT_FROM}`;
        const text = this.dialect === 'postgres' ? sql`CAST(${c} AS text)` : sql`HEX(CAST(${c} AS CHAR))`;
        return material(
          'decimal',
          [
            [sql`CASE WHEN ${small} THEN ${d.dbl('decimal', c)} END`, 'pd_k'],
            [sql`CASE WHEN NOT (${small}) THEN ${text} END`, 'pd_k2'],
          ],
          // Postgres decimals may be NaN or Infinity (text labels): not ranked in SQL.
          this.dialect === 'mysql' ? sql`COALESCE(pd_k, CAST(UNHEX(pd_k2) AS DOUBLE))` : null,
        );
      }
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
        return material('text', [[key, 'pd_k']], rank);
      }
    }
  }

  // -- values --------------------------------------------------------------------------------

  private valueMaterial(y: Column | null): ValueMaterial {
    const { plan, d } = this;
    const op = plan.operation;
    const none: ValueMaterial = { reading: 'null', distinct: [], rowAggregates: [], groupSelect: [], flags: [], finalAggregates: [], rank: null };
    if (plan.aggregator.countsRows || y === null) {
      return {
        ...none,
        reading: 'rows',
        rowAggregates: [[Sql.trusted('COUNT(*)'), 'pd_n']],
        groupSelect: passThrough(['pd_n']),
        finalAggregates: [[Sql.trusted('SUM(pd_n)'), 'pd_n']],
        rank: Sql.trusted('pd_n'),
      };
    }
    const c = y.raw;
    const kind = y.kind;
    switch (op) {
      case 'count':
        return {
          ...none,
          reading: 'count',
          rowAggregates: [[sql`COUNT(${c})`, 'pd_v']],
          groupSelect: passThrough(['pd_v']),
          finalAggregates: [[Sql.trusted('SUM(pd_v)'), 'pd_v']],
          rank: Sql.trusted('pd_v'),
        };
      case 'count_unique': {
        let distinct: Selected;
        let count: string;
        if (kind === 'decimal') {
          const small = this.dialect === 'postgres' ? sql`abs(${c}) < ${TEXT_FROM}` : sql`ABS(${c}) < ${TEXT_FROM}`;
          const text = this.dialect === 'postgres' ? sql`CAST(${c} AS text)` : sql`CAST(${c} AS CHAR)`;
          distinct = [
            [sql`CASE WHEN ${small} THEN ${d.dbl('decimal', c)} END`, 'pd_y'],
            [sql`CASE WHEN NOT (${small}) THEN ${text} END`, 'pd_y2'],
          ];
          count = 'COUNT(DISTINCT pd_y) + COUNT(DISTINCT pd_y2)';
        } else {
          const value = d.distinctValue(kind, c);
          if (value === null) {
            throw new Unsupported(`count_unique on a ${kindName(kind)} column counts distinct JavaScript texts, which depend on the database session zone`);
          }
          distinct = [[value, 'pd_y']];
          count = 'COUNT(DISTINCT pd_y)';
        }
        this.groupByValue(y);
        return {
          ...none,
          reading: 'count',
          distinct,
          groupSelect: y.exact ? distinct : passThrough(distinct.map(([, alias]) => alias)),
          finalAggregates: [[Sql.trusted(count), 'pd_v']],
          rank: Sql.trusted('pd_v'),
        };
      }
      case 'sum':
      case 'avg':
      case 'min':
      case 'max': {
        // Booleans and dates are never numbers for the engine: the group exists, its value is null.
        if (kind === 'bool' || isDateKind(kind)) return none;
        if (kind === 'text') throw new Unsupported(`"${op}" on a text column parses numbers out of text`);
        if (!isNumberKind(kind)) throw new Unsupported(`"${op}" on a ${kindName(kind)} column`);
        if (op === 'min' || op === 'max') {
          const fn = op === 'min' ? 'MIN' : 'MAX';
          // Float NaN and infinities are skipped per row (the engine skips them); a decimal group whose
          // extreme is non-finite or huge is flagged instead.
          const finite = kind === 'float' ? sql`CASE WHEN ${d.nonFinite(kind, c)} THEN NULL ELSE ${c} END` : c;
          const huge = d.hugeAggregate(kind, Sql.trusted('pd_y'));
          const rank = this.dialect === 'postgres' ? Sql.trusted('CAST(pd_v AS double precision)') : Sql.trusted('CAST(pd_v AS DOUBLE)');
          return {
            ...none,
            reading: 'extreme',
            rowAggregates: [[sql`${Sql.trusted(fn)}(${finite})`, 'pd_y']],
            groupSelect: passThrough(['pd_y']),
            flags: huge === null ? [] : [huge],
            finalAggregates: [[Sql.trusted(`${fn}(pd_y)`), 'pd_v']],
            rank,
          };
        }
        if (kind === 'float') {
          throw new Unsupported(`"${op}" of a floating-point column depends on the order of additions; the engine's compensated, rounded sum has no SQL equivalent`);
        }
        // Σ|x| is the sum less twice its negative part; a decimal NaN or infinity makes the
        // group's sum non-finite, which flags the group like a huge term does.
        const term = d.exactNumber(kind, c);
        const magnitude = Sql.trusted('pd_s - 2 * COALESCE(pd_sn, 0)');
        const flags = [d.hugeAggregate(kind, Sql.trusted('pd_s')), d.hugeAggregate(kind, sql`(${magnitude})`)].filter((f): f is Sql => f !== null);
        // A sum only needs to know whether there are values (its SUM is not null); an average divides by their number.
        const counted = op === 'avg';
        return {
          ...none,
          reading: 'sum',
          rowAggregates: [[sql`SUM(${term})`, 'pd_s'], [d.sumNegative(term), 'pd_sn'], ...(counted ? [[sql`COUNT(${c})`, 'pd_v'] as [Sql, string]] : [])],
          groupSelect: [...passThrough(['pd_s']), [magnitude, 'pd_a'], ...(counted ? passThrough(['pd_v']) : [])],
          flags,
          finalAggregates: [
            [Sql.trusted('SUM(pd_s)'), 'pd_s'],
            [Sql.trusted('SUM(pd_a)'), 'pd_a'],
            [Sql.trusted(counted ? 'SUM(pd_v)' : 'COUNT(pd_s)'), 'pd_v'],
            [d.scale(kind, Sql.trusted('SUM(pd_s)')), 'pd_sc'],
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
  private coverage(x: Column | null, date: Column | null): Coverage | null {
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

  private offsetOf(instant: Sql, coverage: Coverage | null): Sql {
    if (coverage === null) return int(this.ctx.clock.offsetMs(0));
    return this.d.lookup(instant, coverage.table.transitions, coverage.table.offsets);
  }

  private wallOffsetOf(wall: Sql, coverage: Coverage | null): Sql {
    if (coverage === null) return int(this.ctx.clock.offsetMs(0));
    return this.d.lookup(wall, this.wallThresholds(coverage), coverage.table.offsets);
  }

  private wallThresholds(coverage: Coverage): number[] {
    const thresholds = wallThresholds(coverage.table);
    if (thresholds === null) throw new Unsupported(`${this.ctx.clock.name} changes its offset twice within a day in this period`);
    return thresholds;
  }

  /**
   * The cells a date-time column is grouped by, such that everything read from its instant is the
   * same for every value of a cell: its bucket (bucket length, zone offsets and the instants they
   * change at), the wall → instant step of a wall-clock column, and every bound it is compared
   * with. Cells are cut in wall time, or for timestamptz in UTC shifted by one of the zone's
   * offsets, so local midnights are cell edges at half-hour offsets too. Their length divides what
   * repeats (a day, the bucket, the differences between offsets); single instants off the cell
   * edges (offset changes, bounds) cut cells where the dialect can, else shorten them. The flags'
   * bounds and the zone table's span are tested on both ends of a cell instead.
   */
  private cellOf(column: Column, x: Column | null, coverage: Coverage | null): Cell {
    const axis = column === x && this.plan.axis === 'time';
    const wall = column.kind === 'wall';
    const offsets = [...new Set(coverage === null ? [this.ctx.clock.offsetMs(0)] : coverage.table.offsets)];
    // Offsets matter to buckets and to wall → instant; a window or a condition only compares instants.
    const zoned = axis || wall;
    const base = zoned ? offsets[0]! : column.bounds.length > 0 ? this.ctx.clock.offsetMs(column.bounds[0]!) : 0;
    const periods = [DAY_MS];
    if (axis) {
      const size = SUB_DAY[this.plan.bucketer!.interval];
      if (size !== undefined) periods.push(size);
    }
    if (zoned) periods.push(...offsets.map((o) => o - base));
    // Instants where something changes, in the cells' time: UTC + base, or wall time (an instant is
    // reached at its wall time under any of the offsets).
    const shifts = wall ? offsets : [base];
    const instants = [...column.bounds, ...(axis && coverage !== null ? coverage.table.transitions : [])];
    const points = instants.flatMap((t) => shifts.map((a) => t + a));
    if (wall && coverage !== null) points.push(...this.wallThresholds(coverage));

    let length = periods.reduce(gcdOf, 0);
    let size = this.d.cellSize(length);
    let splits = [...new Set(points)].filter((p) => !Number.isSafeInteger(p) || floorMod(p, size) !== 0);
    if (!this.d.splitsCells || splits.length > MAX_SPLITS || splits.some((p) => !(Number.isSafeInteger(p) && p >= SAFE_FROM && p < SAFE_TO))) {
      length = splits.reduce(gcdOf, length);
      size = this.d.cellSize(length);
      splits = [];
    }
    if (wall) return { kind: 'wall', size, shift: 0, splits: splits.sort((a, b) => a - b) };
    // Cells of UTC + base and of UTC + shift have the same edges; splits move to the latter.
    const shift = floorMod(base, size);
    return { kind: 'instant', size, shift, splits: splits.map((p) => p - base + shift).sort((a, b) => a - b) };
  }

  // -- statement -----------------------------------------------------------------------------

  private statement(
    subquery: string,
    query: CompiledQuery,
    x: Column | null,
    y: Column | null,
    conditions: Condition[],
    window: { where: Sql | null; prefilter: Sql[] },
    key: KeyMaterial,
    value: ValueMaterial,
    coverage: Coverage | null,
  ): Sql {
    const { d, plan } = this;
    const columns = [...this.used.values()];
    const userQuery = Sql.query({ text: subquery, values: query.values });

    // Grouped columns: by their value, or by a cell of their time when only instants are read.
    const grouped = columns.filter((c) => c.instant || c.exact);
    const cells = new Map<Column, Cell>();
    for (const c of grouped) {
      if (!c.exact && (c.kind === 'instant' || c.kind === 'wall')) cells.set(c, this.cellOf(c, x, coverage));
    }
    // Flags after grouping: from the grouped value (both ends of a cell), else the most of the rows' flags.
    const flagged = columns.filter((c) => this.hasFlag(c));
    const cellEnd = (c: Column): Sql | null => {
      const cell = cells.get(c);
      return cell === undefined ? null : d.cellEnd(cell, c.raw);
    };
    const flagFromGroup = flagged.filter((c) => grouped.includes(c) && (!cells.has(c) || cellEnd(c) !== null));
    const flagFromRows = flagged.filter((c) => !flagFromGroup.includes(c) && (c.rowFlag || grouped.includes(c)));
    const flagPerRow = flagged.filter((c) => c.rowFlag || flagFromRows.includes(c));

    // Rows: the used columns renamed, their flags where rows need them. The user's columns are
    // named alone, not as q."name": a qualified name is also Postgres's functional notation
    // (q.f is f(q) when q has no column f), which the statement check refuses for denied function
    // names; a lone name is never a call, and q is the only table here.
    const s0: Sql[] = columns.map((c) => sql`${c.ident} AS ${c.raw}`);
    for (const c of flagPerRow) s0.push(sql`${d.flag(d.unsafe(c.kind, c.ident)!)} AS ${flagName(c)}`);
    // A count of rows reads no column; MySQL needs something in the select list.
    if (s0.length === 0) s0.push(Sql.trusted('1 AS pd_one'));
    let stage = sql`SELECT ${join(s0, ', ')} FROM (\n${userQuery}\n) AS q`;
    if (window.prefilter.length > 0) stage = sql`${stage} WHERE ${join(window.prefilter, ' AND ')}`;

    const rowKeys: Selected = [];
    for (const c of grouped) {
      const cell = cells.get(c);
      if (cell !== undefined) d.cellKeys(cell, c.raw).forEach((k, j) => rowKeys.push([k, `pd_x${c.index}_${j}`]));
      else d.groupKeys(c.kind, c.raw)!.forEach((k, j) => rowKeys.push([k, j === 0 ? `pd_c${c.index}` : `pd_c${c.index}_${j}`]));
    }
    const keysPerRow = key.reading !== 'time' && x !== null && !x.exact;
    const distinctPerRow = value.distinct.length > 0 && y !== null && !y.exact;
    if (keysPerRow) rowKeys.push(...key.select);
    if (distinctPerRow) rowKeys.push(...value.distinct);
    const rowAggregates: Selected = [...value.rowAggregates, ...flagFromRows.map((c): [Sql, string] => [sql`MAX(${flagName(c)})`, `pd_f${c.index}`])];
    if (rowKeys.length === 0 && rowAggregates.length === 0) rowAggregates.push([Sql.trusted('COUNT(*)'), 'pd_n']);
    // Conditions on plain values stay with the rows, where the optimizer can push them into the user's query.
    const rowWhere = conditions.filter((c) => !c.grouped).map((c) => c.where);
    if (key.rowWhere !== null) rowWhere.push(key.rowWhere);
    stage = sql`SELECT ${selectList([...rowKeys, ...rowAggregates])} FROM (${stage}) AS pd_s0`;
    if (rowWhere.length > 0) stage = sql`${stage} WHERE ${join(rowWhere, ' AND ')}`;
    stage =
      rowKeys.length > 0
        ? sql`${stage} GROUP BY ${Sql.trusted(rowKeys.map((_, i) => String(i + 1)).join(', '))}`
        : // Without keys an aggregate still gives one row; no rows must give no group.
          sql`${stage} HAVING COUNT(*) > 0`;
    // Tests on grouped values (a category's nulls) stay with the groups instead of moving back to every row.
    stage = sql`${stage}${d.fence}`;

    // g0: cells back to values of the column's type.
    if (cells.size > 0) {
      const starts = [...cells].map(([c, cell]): [Sql, string] => {
        const keys = d.cellKeys(cell, c.raw).map((_, j) => Sql.trusted(`pd_x${c.index}_${j}`));
        return [d.cellStart(cell, keys), `pd_c${c.index}`];
      });
      stage = sql`SELECT pd_r.*, ${selectList(starts)} FROM (${stage}) AS pd_r`;
    }

    // g1, g2: milliseconds, flags, instants.
    const timed = columns.filter((c) => c.instant);
    if (flagFromGroup.length > 0 || timed.length > 0) {
      const extra: Sql[] = [];
      for (const c of timed) extra.push(sql`${d.millis(c.kind as 'instant' | 'wall' | 'date', c.raw)} AS ${Sql.trusted(`pd_m${c.index}`)}`);
      for (const c of flagFromGroup) {
        const end = cellEnd(c);
        const unsafe = d.unsafe(c.kind, c.raw)!;
        extra.push(sql`${d.flag(end === null ? unsafe : sql`${unsafe} OR ${d.unsafe(c.kind, end)!}`)} AS ${flagName(c)}`);
      }
      stage = sql`SELECT pd_g0.*, ${join(extra, ', ')} FROM (${stage}) AS pd_g0${d.fence}`;
      if (timed.length > 0) {
        const instants = timed.map((c) => {
          const m = Sql.trusted(`pd_m${c.index}`);
          const t = c.kind === 'instant' ? m : sql`${m} - ${this.wallOffsetOf(m, coverage)}`;
          return sql`${t} AS ${Sql.trusted(`pd_t${c.index}`)}`;
        });
        stage = sql`SELECT pd_g1.*, ${join(instants, ', ')} FROM (${stage}) AS pd_g1${d.fence}`;
      }
    }

    // g3: filters; key and value material; the fallback flag.
    const where = conditions.filter((c) => c.grouped).map((c) => c.where);
    if (window.where !== null) where.push(window.where);
    if (key.groupWhere !== null) where.push(key.groupWhere);
    const unsafe: Sql[] = [...flagFromGroup, ...flagFromRows].map((c) => sql`${flagName(c)} = 1`);
    unsafe.push(...value.flags);
    const g3: Selected = [...(keysPerRow ? passThrough(key.select.map(([, alias]) => alias)) : key.select), ...value.groupSelect];
    if (key.reading === 'time') {
      const t = Sql.trusted(`pd_t${x!.index}`);
      g3.push([sql`${t} + ${this.offsetOf(t, coverage)}`, 'pd_l']);
      if (coverage !== null) {
        // Outside the table's exact span the offsets are extrapolated: such rows fall back.
        // A cell's instants run on from its first one for the cell's length.
        const last = (cells.get(x!)?.size ?? 1) - 1;
        const end = last === 0 ? t : sql`${t} + ${int(last)}`;
        unsafe.push(sql`(${t} IS NOT NULL AND NOT (${t} >= ${int(coverage.from + DAY_MS)} AND ${end} < ${int(coverage.to - DAY_MS)}))`);
      }
    }
    g3.push([unsafe.length === 0 ? int(0) : d.flag(join(unsafe, ' OR ')), 'pd_u']);
    const filter = where.length > 0 ? sql` WHERE ${join(where, ' AND ')}` : Sql.trusted('');
    stage = sql`SELECT ${selectList(g3)} FROM (${stage}) AS pd_g2${filter}${d.fence}`;

    // g4, g5: keys.
    const passValues = [...value.groupSelect.map(([, alias]) => alias), 'pd_u'];
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
        stage = sql`SELECT ${selectList([[dayNumber, 'pd_d'], ...passThrough(passValues)])} FROM (${stage}) AS pd_g3${d.fence}`;
        const days = Sql.trusted('pd_d');
        keyExpr =
          bucketer.interval === 'week'
            ? sql`(pd_d - ${d.floorMod(sql`pd_d + 3`, 7)}) * ${int(DAY_MS)}`
            : bucketer.interval === 'month'
              ? sql`(pd_d - ${d.dayOfMonth(days)} + 1) * ${int(DAY_MS)}`
              : sql`(pd_d - ${d.dayOfYear(days)} + 1) * ${int(DAY_MS)}`;
      }
      const typed = this.dialect === 'postgres' ? sql`CAST(${keyExpr} AS bigint)` : sql`CAST(${keyExpr} AS SIGNED)`;
      const keyed: Selected = [[sql`CASE WHEN pd_u = 1 THEN NULL ELSE ${typed} END`, 'pd_k'], ...passThrough(passValues)];
      stage = sql`SELECT ${selectList(keyed)} FROM (${stage}) AS pd_g4`;
    } else if (key.select.length > 0) {
      const keys = key.select.map(([, alias]): [Sql, string] => [sql`CASE WHEN pd_u = 1 THEN NULL ELSE ${Sql.trusted(alias)} END`, alias]);
      stage = sql`SELECT ${selectList([...keys, ...passThrough(passValues)])} FROM (${stage}) AS pd_g4`;
    }

    // g6: groups of the engine's keys.
    const keyAliases = key.reading === 'time' ? ['pd_k'] : key.select.map(([, alias]) => alias);
    const groupBy = [...keyAliases, 'pd_u'];
    const aggregates: Selected = [...passThrough(keyAliases), [Sql.trusted('pd_u'), 'pd_u'], ...value.finalAggregates];
    stage = sql`SELECT ${selectList(aggregates)} FROM (${stage}) AS pd_g5 GROUP BY ${Sql.trusted(groupBy.join(', '))}`;

    return this.limited(stage, key, value);
  }

  /** g7: ORDER BY/LIMIT or RANK, only where the engine would keep exactly these points. */
  private limited(stage: Sql, key: KeyMaterial, value: ValueMaterial): Sql {
    const { plan, plans, ctx } = this;
    // Sort and maxRecords act on the axis shared by every dataset; with one dataset it is this one.
    if (!this.complete || plans.length !== 1 || plan.maxRecords === null || ctx.cumulative || ctx.type === 'matrix') return stage;
    const limit = plan.maxRecords;
    if (!Number.isSafeInteger(limit + 1)) return stage;
    if (key.reading === 'time') {
      // The last N buckets in time; gap filling would add buckets, so not with includeZeros.
      if (ctx.chart.includeZeros === true) return stage;
      return sql`SELECT * FROM (${stage}) AS pd_g6 ORDER BY pd_u DESC, pd_k DESC${this.d.limit(limit + 1)}`;
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
    return sql`SELECT * FROM (SELECT pd_g6.*, RANK() OVER (ORDER BY ${order}) AS pd_r FROM (${stage}) AS pd_g6) AS pd_g7 WHERE pd_r <= ${int(limit)} OR pd_u = 1`;
  }
}

interface Coverage {
  readonly table: OffsetTable;
  readonly from: number;
  readonly to: number;
}

function flagName(column: Column): Sql {
  return Sql.trusted(`pd_f${column.index}`);
}

/** gcd of whole numbers of milliseconds; 1 (a millisecond) for anything else. */
function gcdOf(a: number, b: number): number {
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return 1;
  a = Math.abs(a);
  b = Math.abs(b);
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function floorMod(x: number, m: number): number {
  return ((x % m) + m) % m;
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
