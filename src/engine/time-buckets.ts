/**
 * Time buckets in the chart's zone. A bucket is identified by a number (its key):
 * - second, minute, hour: the instant the bucket starts (epoch ms). Stepping by instants keeps
 *   DST right: the hour skipped in spring never appears, the hour repeated in autumn appears
 *   twice (its labels then carry the offset to tell them apart).
 * - day, week, month, year: the wall-clock start (local midnight written as if it were UTC), so a
 *   day is the local calendar day whether it lasts 23, 24 or 25 hours.
 * Weeks are ISO weeks starting on Monday.
 *
 * Labels: second `YYYY-MM-DD HH:mm:ss`, minute `YYYY-MM-DD HH:mm`, hour `YYYY-MM-DD HH:00`,
 * day `YYYY-MM-DD`, week `YYYY-MM-DD` (its Monday), month `YYYY-MM`, year `YYYY`. A sub-day label
 * whose wall time occurs twice (clocks going back) gets ` +HH:MM` appended.
 */
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  daysFromCivil,
  formatOffset,
  formatWall,
  mondayIndex,
  monthStartDay,
  yearOfDay,
  yearStartDay,
  civilFromMs,
} from './calendar.js';
import type { TimeInterval } from './types.js';
import type { ZoneClock } from './zone-clock.js';

export interface Bucketer {
  readonly interval: TimeInterval;
  /** `instant` for sub-day intervals, `wall` for day and longer (see the file comment). */
  readonly keySpace: 'instant' | 'wall';
  /** Key of the bucket holding instant `t` (epoch ms). */
  bucket(t: number): number;
  /** Key of the bucket after `key`. */
  next(key: number): number;
  label(key: number): string;
  /** Instant at which the bucket starts. */
  startInstant(key: number): number;
}

export function createBucketer(interval: TimeInterval, clock: ZoneClock): Bucketer {
  switch (interval) {
    case 'second':
      return subDayBucketer('second', SECOND_MS, clock);
    case 'minute':
      return subDayBucketer('minute', MINUTE_MS, clock);
    case 'hour':
      return subDayBucketer('hour', HOUR_MS, clock);
    case 'day':
      return wallBucketer(
        'day',
        clock,
        (local) => Math.floor(local / DAY_MS) * DAY_MS,
        (key) => key + DAY_MS,
      );
    case 'week':
      return wallBucketer(
        'week',
        clock,
        (local) => {
          const day = Math.floor(local / DAY_MS);
          return (day - mondayIndex(day)) * DAY_MS;
        },
        (key) => key + 7 * DAY_MS,
        'day',
      );
    case 'month':
      return wallBucketer(
        'month',
        clock,
        (local) => monthStartDay(Math.floor(local / DAY_MS)) * DAY_MS,
        (key) => {
          const c = civilFromMs(key);
          return (c.month === 12 ? daysFromCivil(c.year + 1, 1, 1) : daysFromCivil(c.year, c.month + 1, 1)) * DAY_MS;
        },
      );
    case 'year':
      return wallBucketer(
        'year',
        clock,
        (local) => yearStartDay(Math.floor(local / DAY_MS)) * DAY_MS,
        (key) => daysFromCivil(yearOfDay(Math.floor(key / DAY_MS)) + 1, 1, 1) * DAY_MS,
      );
  }
}

function wallBucketer(
  interval: TimeInterval,
  clock: ZoneClock,
  floorLocal: (local: number) => number,
  next: (key: number) => number,
  labelPrecision: 'day' | 'month' | 'year' = interval as 'day' | 'month' | 'year',
): Bucketer {
  return {
    interval,
    keySpace: 'wall',
    bucket: (t) => floorLocal(t + clock.offsetMs(t)),
    next,
    label: (key) => formatWall(key, labelPrecision),
    startInstant: (key) => clock.wallToInstant(key),
  };
}

function subDayBucketer(interval: 'second' | 'minute' | 'hour', size: number, clock: ZoneClock): Bucketer {
  const bucket = (t: number): number => {
    const off = clock.offsetMs(t);
    const local = t + off;
    const wall = local - (((local % size) + size) % size);
    const guess = wall - off;
    // Almost always the bucket starts under the same offset. Otherwise a transition lies inside
    // the bucket (half-hour shifts such as Lord Howe's, or a bucket start that fell in a gap):
    // resolve the local start the way luxon and Postgres do (a start in a gap moves forward to the
    // transition), so streamed and pushed-down charts agree.
    const o2 = clock.offsetMs(guess);
    if (o2 === off) return guess;
    const second = guess - (o2 - off);
    const o3 = clock.offsetMs(second);
    if (o3 === o2) return second;
    return wall - Math.min(o2, o3);
  };
  return {
    interval,
    keySpace: 'instant',
    bucket,
    next: (key) => {
      const n = bucket(key + size);
      return n > key ? n : key + size;
    },
    label: (key) => {
      const off = clock.offsetMs(key);
      const text = formatWall(key + off, interval);
      return clock.isRepeatedWallTime(key) ? `${text} ${formatOffset(off)}` : text;
    },
    startInstant: (key) => key,
  };
}

/**
 * Every bucket key from the bucket of `from` to the bucket of `to` (instants), inclusive, or null
 * when there would be more than `limit`.
 */
export function enumerateBuckets(bucketer: Bucketer, fromKey: number, toKey: number, limit: number): number[] | null {
  const keys: number[] = [];
  for (let k = fromKey; k <= toKey; k = bucketer.next(k)) {
    if (keys.length >= limit) return null;
    keys.push(k);
  }
  return keys;
}
