/** The stages of a dataset's grouped query (rows, g0 to g7: see plan.ts), from the planned parts. */
import { DAY_MS } from '../calendar.js';
import type { ChartType } from '../types.js';
import type { Cell } from './dialect.js';
import type { KeyMaterial } from './plan-keys.js';
import { flagName, hasFlag, passThrough, selectList, type Column, type PlanScope, type Selected } from './plan-scope.js';
import type { ValueMaterial } from './plan-values.js';
import { cellOf, offsetOf, SUB_DAY, wallOffsetOf, type Coverage } from './plan-zone.js';
import { int, join, sql, Sql, type CompiledQuery } from './sql-text.js';

export interface Condition {
  readonly where: Sql;
  /** Reads instants, so it is evaluated after grouping. */
  readonly grouped: boolean;
}

export function groupedStatement(
  scope: PlanScope,
  columns: readonly Column[],
  subquery: string,
  query: CompiledQuery,
  x: Column | null,
  y: Column | null,
  conditions: Condition[],
  window: { where: Sql | null; prefilter: Sql[] },
  key: KeyMaterial,
  value: ValueMaterial,
  coverage: Coverage | null,
  b: Column | null = null,
  split: KeyMaterial | null = null,
): Sql {
  const { d, plan } = scope;
  // The breakdown value: a second key, computed and grouped by like a category's.
  const splitAliases = split === null ? [] : split.select.map(([, alias]) => alias);
  const userQuery = Sql.query({ text: subquery, values: query.values });

  // Grouped columns: by their value, or by a cell of their time when only instants are read.
  const grouped = columns.filter((c) => c.instant || c.exact);
  const cells = new Map<Column, Cell>();
  for (const c of grouped) {
    if (!c.exact && (c.kind === 'instant' || c.kind === 'wall')) cells.set(c, cellOf(scope, c, x, coverage));
  }
  // Flags after grouping: from the grouped value (both ends of a cell), else the most of the rows' flags.
  const flagged = columns.filter((c) => hasFlag(d, c));
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
  const splitPerRow = split !== null && b !== null && !b.exact;
  if (keysPerRow) rowKeys.push(...key.select);
  if (splitPerRow) rowKeys.push(...split.select);
  if (distinctPerRow) rowKeys.push(...value.distinct);
  const rowAggregates: Selected = [...value.rowAggregates, ...flagFromRows.map((c): [Sql, string] => [sql`MAX(${flagName(c)})`, `pd_f${c.index}`])];
  if (rowKeys.length === 0 && rowAggregates.length === 0) rowAggregates.push([Sql.trusted('COUNT(*)'), 'pd_n']);
  // Conditions on plain values stay with the rows, where the optimizer can push them into the user's query.
  const rowWhere = conditions.filter((c) => !c.grouped).map((c) => c.where);
  if (key.rowWhere !== null) rowWhere.push(key.rowWhere);
  if (split !== null && split.rowWhere !== null) rowWhere.push(split.rowWhere);
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
        const t = c.kind === 'instant' ? m : sql`${m} - ${wallOffsetOf(scope, m, coverage)}`;
        return sql`${t} AS ${Sql.trusted(`pd_t${c.index}`)}`;
      });
      stage = sql`SELECT pd_g1.*, ${join(instants, ', ')} FROM (${stage}) AS pd_g1${d.fence}`;
    }
  }

  // g3: filters; key and value material; the fallback flag.
  const where = conditions.filter((c) => c.grouped).map((c) => c.where);
  if (window.where !== null) where.push(window.where);
  if (key.groupWhere !== null) where.push(key.groupWhere);
  if (split !== null && split.groupWhere !== null) where.push(split.groupWhere);
  const unsafe: Sql[] = [...flagFromGroup, ...flagFromRows].map((c) => sql`${flagName(c)} = 1`);
  unsafe.push(...value.flags);
  const g3: Selected = [
    ...(keysPerRow ? passThrough(key.select.map(([, alias]) => alias)) : key.select),
    ...(split === null ? [] : splitPerRow ? passThrough(splitAliases) : split.select),
    ...value.groupSelect,
  ];
  if (key.reading === 'time') {
    const t = Sql.trusted(`pd_t${x!.index}`);
    g3.push([sql`${t} + ${offsetOf(scope, t, coverage)}`, 'pd_l']);
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
  const nullWhenFlagged = (alias: string): [Sql, string] => [sql`CASE WHEN pd_u = 1 THEN NULL ELSE ${Sql.trusted(alias)} END`, alias];
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
      stage = sql`SELECT ${selectList([[dayNumber, 'pd_d'], ...passThrough([...splitAliases, ...passValues])])} FROM (${stage}) AS pd_g3${d.fence}`;
      const days = Sql.trusted('pd_d');
      keyExpr =
        bucketer.interval === 'week'
          ? sql`(pd_d - ${d.floorMod(sql`pd_d + 3`, 7)}) * ${int(DAY_MS)}`
          : bucketer.interval === 'month'
            ? sql`(pd_d - ${d.dayOfMonth(days)} + 1) * ${int(DAY_MS)}`
            : sql`(pd_d - ${d.dayOfYear(days)} + 1) * ${int(DAY_MS)}`;
    }
    const typed = scope.dialect === 'postgres' ? sql`CAST(${keyExpr} AS bigint)` : sql`CAST(${keyExpr} AS SIGNED)`;
    const keyed: Selected = [[sql`CASE WHEN pd_u = 1 THEN NULL ELSE ${typed} END`, 'pd_k'], ...splitAliases.map(nullWhenFlagged), ...passThrough(passValues)];
    stage = sql`SELECT ${selectList(keyed)} FROM (${stage}) AS pd_g4`;
  } else if (key.select.length > 0 || splitAliases.length > 0) {
    const keys = [...key.select.map(([, alias]) => alias), ...splitAliases].map(nullWhenFlagged);
    stage = sql`SELECT ${selectList([...keys, ...passThrough(passValues)])} FROM (${stage}) AS pd_g4`;
  }

  // g6: groups of the engine's keys.
  const keyAliases = [...(key.reading === 'time' ? ['pd_k'] : key.select.map(([, alias]) => alias)), ...splitAliases];
  const groupBy = [...keyAliases, 'pd_u'];
  const aggregates: Selected = [...passThrough(keyAliases), [Sql.trusted('pd_u'), 'pd_u'], ...value.finalAggregates];
  stage = sql`SELECT ${selectList(aggregates)} FROM (${stage}) AS pd_g5 GROUP BY ${Sql.trusted(groupBy.join(', '))}`;

  return limited(scope, stage, key, value);
}

/** g7: ORDER BY/LIMIT or RANK, only where the engine would keep exactly these points. */
function limited(scope: PlanScope, stage: Sql, key: KeyMaterial, value: ValueMaterial): Sql {
  const { plan, plans, ctx } = scope;
  // Sort and maxRecords act on the axis shared by every dataset; with one dataset it is this one.
  if (!scope.complete || plans.length !== 1 || plan.maxRecords === null || ctx.cumulative || ctx.type === 'matrix') return stage;
  // With a breakdown, every value's series shares the axis: no group can be left out in SQL.
  if (plan.fields.breakdown !== null) return stage;
  const limit = plan.maxRecords;
  if (!Number.isSafeInteger(limit + 1)) return stage;
  if (key.reading === 'time') {
    // The last N buckets in time; gap filling would add buckets, so not with includeZeros.
    if (ctx.chart.includeZeros === true) return stage;
    return sql`SELECT * FROM (${stage}) AS pd_g6 ORDER BY pd_u DESC, pd_k DESC${scope.d.limit(limit + 1)}`;
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

const PUSHDOWN_SORTABLE: ReadonlySet<ChartType> = new Set(['line', 'bar', 'pie', 'doughnut', 'radar', 'polar']);
