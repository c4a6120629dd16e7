/**
 * UTC offsets of one time zone, answered from a cache of offset transitions so the per-row
 * path is two comparisons in the common case (rows close in time share a segment).
 *
 * Transitions are found once per UTC year with luxon (a daily scan, then bisection to the
 * millisecond); luxon is never called per row.
 */
import { FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { DAY_MS, MINUTE_MS, daysFromCivil, yearOfDay } from './calendar.js';
import { InvalidChartConfigError } from './errors.js';

interface YearOffsets {
  /** Instants where a segment starts; the first is the year's start. */
  starts: number[];
  offsets: number[];
  end: number;
}

const MAX_CACHED_CLOCKS = 128;
const clocks = new Map<string, ZoneClock>();

const UTC_NAMES = new Set(['utc', 'etc/utc', 'gmt', 'etc/gmt', 'z', 'zulu', 'universal', 'etc/universal']);

export class ZoneClock {
  readonly name: string;
  /** The luxon zone, for calendar math done once per chart (date windows), never per row. */
  readonly zone: Zone;
  private segStart: number;
  private segEnd: number;
  private segOffset: number;
  private readonly years = new Map<number, YearOffsets>();

  private constructor(name: string, zone: Zone, fixedOffsetMs: number | null) {
    this.name = name;
    this.zone = zone;
    if (fixedOffsetMs === null) {
      this.segStart = 0;
      this.segEnd = -1;
      this.segOffset = 0;
    } else {
      this.segStart = -Infinity;
      this.segEnd = Infinity;
      this.segOffset = fixedOffsetMs;
    }
  }

  /**
   * `timezone` is an IANA name, `UTC`, or a fixed offset such as `UTC+2`; empty means UTC.
   * Clocks are shared per zone: the transition table is the same for every chart, and the
   * current-segment cursor is only a hint, so sharing it is safe.
   */
  static of(timezone: string | null | undefined): ZoneClock {
    const key = (timezone ?? '').trim();
    const cached = clocks.get(key);
    if (cached) return cached;
    const clock = ZoneClock.create(key);
    if (clocks.size >= MAX_CACHED_CLOCKS) clocks.delete(clocks.keys().next().value!);
    clocks.set(key, clock);
    return clock;
  }

  private static create(name: string): ZoneClock {
    if (name === '' || UTC_NAMES.has(name.toLowerCase())) {
      return new ZoneClock('UTC', FixedOffsetZone.utcInstance, 0);
    }
    if (IANAZone.isValidZone(name)) {
      const zone = IANAZone.create(name);
      // Zones that never change offset (Etc/GMT+5, …) take the constant path.
      const sample = [Date.UTC(1970, 0, 1), Date.UTC(2000, 0, 1), Date.UTC(2000, 6, 1), Date.UTC(2030, 0, 1), Date.UTC(2030, 6, 1)];
      const offsets = sample.map((t) => zone.offset(t));
      if (name.toLowerCase().startsWith('etc/') && offsets.every((o) => o === offsets[0])) {
        return new ZoneClock(name, zone, offsets[0]! * MINUTE_MS);
      }
      return new ZoneClock(name, zone, null);
    }
    const fixed = FixedOffsetZone.parseSpecifier(name);
    if (fixed) return new ZoneClock(name, fixed, fixed.offset(0) * MINUTE_MS);
    throw new InvalidChartConfigError('timezone', `unknown time zone "${name}"`);
  }

  /** Offset from UTC in milliseconds at the instant `t` (local wall time = t + offset). */
  offsetMs(t: number): number {
    if (t >= this.segStart && t < this.segEnd) return this.segOffset;
    return this.locate(t);
  }

  private locate(t: number): number {
    if (!Number.isFinite(t)) return 0;
    const year = yearOfDay(Math.floor(t / DAY_MS));
    const data = this.yearOffsets(year);
    const { starts, offsets } = data;
    let i = starts.length - 1;
    while (i > 0 && starts[i]! > t) i -= 1;
    this.segStart = starts[i]!;
    this.segEnd = i + 1 < starts.length ? starts[i + 1]! : data.end;
    this.segOffset = offsets[i]!;
    return this.segOffset;
  }

  private yearOffsets(year: number): YearOffsets {
    const cached = this.years.get(year);
    if (cached) return cached;
    const start = daysFromCivil(year, 1, 1) * DAY_MS;
    const end = daysFromCivil(year + 1, 1, 1) * DAY_MS;
    const starts = [start];
    const offsets = [this.luxonOffset(start)];
    let prevT = start;
    let prevOff = offsets[0]!;
    for (let t = start + DAY_MS; t <= end; t += DAY_MS) {
      const off = this.luxonOffset(t);
      if (off !== prevOff) {
        // Bisect to the first millisecond carrying the new offset.
        let lo = prevT;
        let hi = t;
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (this.luxonOffset(mid) === prevOff) lo = mid;
          else hi = mid;
        }
        if (hi < end) {
          starts.push(hi);
          offsets.push(this.luxonOffset(hi));
        }
        prevOff = off;
      }
      prevT = t;
    }
    const data = { starts, offsets, end };
    this.years.set(year, data);
    return data;
  }

  private luxonOffset(t: number): number {
    const minutes = this.zone.offset(t);
    return Number.isFinite(minutes) ? minutes * MINUTE_MS : 0;
  }

  /**
   * The instant of a wall-clock time (milliseconds since 1970 read as local time). A time that
   * occurs twice (clocks going back) resolves to the earlier instant; a time skipped by clocks
   * going forward moves forward by the size of the gap.
   */
  wallToInstant(wall: number): number {
    const before = this.offsetMs(wall - DAY_MS);
    const after = this.offsetMs(wall + DAY_MS);
    if (before === after) return wall - before;
    const a = wall - before;
    const b = wall - after;
    const aValid = this.offsetMs(a) === before;
    const bValid = this.offsetMs(b) === after;
    if (aValid && bValid) return Math.min(a, b);
    if (aValid) return a;
    if (bValid) return b;
    return wall - Math.min(before, after);
  }

  /** True when the wall-clock time of instant `t` also occurs at another instant. */
  isRepeatedWallTime(t: number): boolean {
    const off = this.offsetMs(t);
    const wall = t + off;
    for (const other of [this.offsetMs(t - DAY_MS / 2), this.offsetMs(t + DAY_MS / 2)]) {
      if (other !== off && this.offsetMs(wall - other) === other) return true;
    }
    return false;
  }
}
