/**
 * Time in a dataset's grouped query: the table of zone offsets written into SQL and the span it is
 * exact for, offset lookups, and the cells date-time columns are grouped by.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, daysFromCivil } from '../calendar.js';
import type { Cell } from './dialect.js';
import { Unsupported } from './errors.js';
import type { Column, PlanScope } from './plan-scope.js';
import { int, type Sql } from './sql-text.js';
import { isFixedZone, offsetTable, wallThresholds, type OffsetTable } from './zone-offsets.js';

/** The zone table covers at most this much time; more would make a very long query. */
const MAX_COVERAGE_MS = 300 * 366 * DAY_MS;
/** Margin around windows and spans so approximate instants outside the table still compare right. */
const COVERAGE_MARGIN_MS = 3 * DAY_MS;
/** Open windows on a time axis cover from 1970 to this far after now; other rows fall back. */
const OPEN_COVERAGE_AHEAD_MS = 30 * 366 * DAY_MS;
/** Instants from year 2 to before year 9998. */
export const SAFE_FROM = daysFromCivil(2, 1, 1) * DAY_MS;
export const SAFE_TO = daysFromCivil(9998, 1, 1) * DAY_MS;
/** Instants a cell may be cut at; more shorten the cells instead. */
const MAX_SPLITS = 512;

export const SUB_DAY: Partial<Record<string, number>> = { second: SECOND_MS, minute: MINUTE_MS, hour: HOUR_MS };

export interface Coverage {
  readonly table: OffsetTable;
  readonly from: number;
  readonly to: number;
}

/** The zone table, when offsets vary and something needs them; with the span it is exact for. */
export function zoneCoverage(scope: PlanScope, columns: readonly Column[], spans: readonly number[], x: Column | null, date: Column | null): Coverage | null {
  const timeAxis = x !== null && scope.plan.axis === 'time';
  const needsWall = columns.some((c) => c.instant && c.kind !== 'instant');
  if (isFixedZone(scope.ctx.clock) || (!timeAxis && !needsWall)) return null;
  const points = [...spans];
  if (timeAxis || points.length === 0) {
    // The bucketed column is bounded by the window only when the window is on that column.
    const window = date === x ? scope.plan.window : null;
    const now = (scope.ctx.chart.now ?? new Date()).getTime();
    points.push(window?.start ?? Date.UTC(1970, 0, 1), window?.end ?? now + OPEN_COVERAGE_AHEAD_MS);
    if (scope.plan.window?.start != null) points.push(scope.plan.window.start);
    if (scope.plan.window?.end != null) points.push(scope.plan.window.end);
  }
  const from = Math.floor((Math.min(...points) - COVERAGE_MARGIN_MS) / DAY_MS) * DAY_MS;
  const to = Math.ceil((Math.max(...points) + COVERAGE_MARGIN_MS) / DAY_MS) * DAY_MS;
  if (!(to - from <= MAX_COVERAGE_MS)) {
    throw new Unsupported(`the dates involved span more than 300 years, too long a table of ${scope.ctx.clock.name} offsets to write into SQL`);
  }
  return { table: offsetTable(scope.ctx.clock, from - 2 * DAY_MS, to + 2 * DAY_MS), from, to };
}

export function offsetOf(scope: PlanScope, instant: Sql, coverage: Coverage | null): Sql {
  if (coverage === null) return int(scope.ctx.clock.offsetMs(0));
  return scope.d.lookup(instant, coverage.table.transitions, coverage.table.offsets);
}

export function wallOffsetOf(scope: PlanScope, wall: Sql, coverage: Coverage | null): Sql {
  if (coverage === null) return int(scope.ctx.clock.offsetMs(0));
  return scope.d.lookup(wall, coveredWallThresholds(scope, coverage), coverage.table.offsets);
}

function coveredWallThresholds(scope: PlanScope, coverage: Coverage): number[] {
  const thresholds = wallThresholds(coverage.table);
  if (thresholds === null) throw new Unsupported(`${scope.ctx.clock.name} changes its offset twice within a day in this period`);
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
export function cellOf(scope: PlanScope, column: Column, x: Column | null, coverage: Coverage | null): Cell {
  const axis = column === x && scope.plan.axis === 'time';
  const wall = column.kind === 'wall';
  const offsets = [...new Set(coverage === null ? [scope.ctx.clock.offsetMs(0)] : coverage.table.offsets)];
  // Offsets matter to buckets and to wall → instant; a window or a condition only compares instants.
  const zoned = axis || wall;
  const base = zoned ? offsets[0]! : column.bounds.length > 0 ? scope.ctx.clock.offsetMs(column.bounds[0]!) : 0;
  const periods = [DAY_MS];
  if (axis) {
    const size = SUB_DAY[scope.plan.bucketer!.interval];
    if (size !== undefined) periods.push(size);
  }
  if (zoned) periods.push(...offsets.map((o) => o - base));
  // Instants where something changes, in the cells' time: UTC + base, or wall time (an instant is
  // reached at its wall time under any of the offsets).
  const shifts = wall ? offsets : [base];
  const instants = [...column.bounds, ...(axis && coverage !== null ? coverage.table.transitions : [])];
  const points = instants.flatMap((t) => shifts.map((a) => t + a));
  if (wall && coverage !== null) points.push(...coveredWallThresholds(scope, coverage));

  let length = periods.reduce(gcdOf, 0);
  let size = scope.d.cellSize(length);
  let splits = [...new Set(points)].filter((p) => !Number.isSafeInteger(p) || floorMod(p, size) !== 0);
  if (!scope.d.splitsCells || splits.length > MAX_SPLITS || splits.some((p) => !(Number.isSafeInteger(p) && p >= SAFE_FROM && p < SAFE_TO))) {
    length = splits.reduce(gcdOf, length);
    size = scope.d.cellSize(length);
    splits = [];
  }
  if (wall) return { kind: 'wall', size, shift: 0, splits: splits.sort((a, b) => a - b) };
  // Cells of UTC + base and of UTC + shift have the same edges; splits move to the latter.
  const shift = floorMod(base, size);
  return { kind: 'instant', size, shift, splits: splits.map((p) => p - base + shift).sort((a, b) => a - b) };
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
