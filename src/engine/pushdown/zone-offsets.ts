/**
 * The chart zone's UTC offsets over a span of time, read from the engine's own ZoneClock, and
 * written into SQL (DialectSql.lookup; `piecewise` is the CASE form). Using the engine's table
 * (not the database's time zone data) makes SQL buckets equal to the engine's by construction,
 * and needs no time zone tables on the server (MariaDB ships without them).
 *
 * Two functions of one table:
 * - instant → offset: the offset in force at an instant (local wall time = instant + offset);
 * - wall → offset: what ZoneClock.wallToInstant subtracts from a wall-clock time. Around a
 *   transition at T from offset a to b, walls before T + max(a, b) use a and later ones b: a time
 *   skipped by the change moves forward by the gap, a repeated time takes the earlier instant.
 */
import { DAY_MS, HOUR_MS } from '../calendar.js';
import type { ZoneClock } from '../zone-clock.js';
import { int, sql, type Sql } from './sql-text.js';

export interface OffsetTable {
  /** Instants at which the offset changes, ascending. */
  readonly transitions: readonly number[];
  /** offsets[i] is in force before transitions[i] (and the last one after the last transition). */
  readonly offsets: readonly number[];
}

const SCAN_STEP_MS = 6 * HOUR_MS;

/** True when the clock has one offset at every instant (UTC, `UTC+2`, `Etc/GMT-5`). */
export function isFixedZone(clock: ZoneClock): boolean {
  if (clock.zone.isUniversal) return true;
  if (!clock.name.toLowerCase().startsWith('etc/')) return false;
  // The engine gives Etc/* zones a constant clock when these samples agree (zone-clock.ts).
  const samples = [Date.UTC(1970, 0, 1), Date.UTC(2000, 0, 1), Date.UTC(2000, 6, 1), Date.UTC(2030, 0, 1), Date.UTC(2030, 6, 1)];
  const first = clock.offsetMs(samples[0]!);
  return samples.every((t) => clock.offsetMs(t) === first);
}

/** Tables per clock and span: a chart run plans each dataset twice, and spans repeat for a day. */
const tables = new WeakMap<ZoneClock, Map<string, OffsetTable>>();
const MAX_TABLES_PER_CLOCK = 16;

/**
 * The offsets the clock gives between `from` and `to` (epoch ms). Offsets change at most once in
 * a few hours in every zone, so a scan in 6-hour steps with bisection to the millisecond finds
 * exactly the transitions of the engine's cached table.
 */
export function offsetTable(clock: ZoneClock, from: number, to: number): OffsetTable {
  let cached = tables.get(clock);
  if (cached === undefined) tables.set(clock, (cached = new Map()));
  const key = `${from}:${to}`;
  const known = cached.get(key);
  if (known !== undefined) return known;
  const table = scanOffsets(clock, from, to);
  if (cached.size >= MAX_TABLES_PER_CLOCK) cached.delete(cached.keys().next().value!);
  cached.set(key, table);
  return table;
}

function scanOffsets(clock: ZoneClock, from: number, to: number): OffsetTable {
  const transitions: number[] = [];
  const offsets: number[] = [clock.offsetMs(from)];
  let prevT = from;
  let prevOff = offsets[0]!;
  for (let t = from + SCAN_STEP_MS; ; t += SCAN_STEP_MS) {
    const at = Math.min(t, to);
    const off = clock.offsetMs(at);
    if (off !== prevOff) {
      let lo = prevT;
      let hi = at;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (clock.offsetMs(mid) === prevOff) lo = mid;
        else hi = mid;
      }
      transitions.push(hi);
      offsets.push(off);
      prevOff = off;
    }
    prevT = at;
    if (at >= to) break;
  }
  return { transitions, offsets };
}

/** Thresholds of the wall → offset function, or null when two transitions are too close to tell apart. */
export function wallThresholds(table: OffsetTable): number[] | null {
  const out: number[] = [];
  for (let i = 0; i < table.transitions.length; i += 1) {
    const w = table.transitions[i]! + Math.max(table.offsets[i]!, table.offsets[i + 1]!);
    if (out.length > 0 && w <= out[out.length - 1]! + DAY_MS) return null;
    out.push(w);
  }
  return out;
}

/** `CASE` over the thresholds, nested as a binary search so each row makes ~log2(n) comparisons. */
export function piecewise(x: Sql, thresholds: readonly number[], values: readonly number[]): Sql {
  const build = (lo: number, hi: number): Sql => {
    if (lo === hi) return int(values[lo]!);
    const mid = (lo + hi + 1) >> 1;
    return sql`CASE WHEN ${x} < ${int(thresholds[mid - 1]!)} THEN ${build(lo, mid - 1)} ELSE ${build(mid, hi)} END`;
  };
  return build(0, values.length - 1);
}
