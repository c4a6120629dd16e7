/**
 * The y value of a dataset's grouped query: plain aggregates per row group, combined per engine
 * group, with flags for groups whose aggregates the engine would read differently.
 */
import { isDateKind, isNumberKind } from './columns.js';
import { kindName } from './conditions-sql.js';
import { Unsupported } from './errors.js';
import { groupByValue, passThrough, TEXT_FROM, type Column, type PlanScope, type Selected } from './plan-scope.js';
import { sql, Sql } from './sql-text.js';

export type ValueReading = 'rows' | 'count' | 'sum' | 'extreme' | 'null';

export interface ValueMaterial {
  readonly reading: ValueReading;
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

export function valueMaterial(scope: PlanScope, y: Column | null): ValueMaterial {
  const { plan, d } = scope;
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
        const small = scope.dialect === 'postgres' ? sql`abs(${c}) < ${TEXT_FROM}` : sql`ABS(${c}) < ${TEXT_FROM}`;
        const text = scope.dialect === 'postgres' ? sql`CAST(${c} AS text)` : sql`CAST(${c} AS CHAR)`;
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
      groupByValue(d, y);
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
        const rank = scope.dialect === 'postgres' ? Sql.trusted('CAST(pd_v AS double precision)') : Sql.trusted('CAST(pd_v AS DOUBLE)');
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
        rank: op === 'sum' ? (scope.dialect === 'postgres' ? Sql.trusted('CAST(pd_s AS double precision)') : Sql.trusted('CAST(pd_s AS DOUBLE)')) : null,
      };
    }
    default:
      throw new Unsupported(`operation "${op}"`);
  }
}
