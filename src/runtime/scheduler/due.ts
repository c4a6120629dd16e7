import { DateTime } from 'luxon';
import { allowedWeekdays, frequencyNumber, UNIT_SECONDS, weekdayName, weekdayNumber } from './cadence.js';

/*
 * When a dashboard or a chart is due for a refresh: pure functions of the schedule, the time zone,
 * the last refresh and "now". Chartbrew's rules (frequencies, `time`, `dayOfWeek`, `daysOfWeek`,
 * the project time zone) with two corrections written down in docs/decisions/0012-scheduler.md:
 *
 * - `daily` and `weekly` use wall-clock slots in the zone (luxon: a slot in a DST gap moves
 *   forward by the gap, an ambiguous one is its second occurrence), and a slot counts as done
 *   when a refresh started at or after it. So a 23- or 25-hour day still refreshes once.
 * - `every_x_*` count elapsed time from the last refresh (never a cron pattern, which skips or
 *   repeats the DST hour).
 *
 * Periods missed while nothing ran collapse into one catch-up: the latest slot that has passed
 * is the only one that is checked.
 */

export interface ScheduleTime {
  hour?: number;
  minute?: number;
  second?: number;
}

export interface ScheduleSpec {
  frequency?: string;
  frequencyNumber?: string | number;
  time?: ScheduleTime;
  dayOfWeek?: number | string;
  daysOfWeek?: (number | string)[];
  timezone?: string;
}

export interface DueAnswer {
  /** True when a refresh should start now. */
  due: boolean;
  /**
   * The period a due refresh belongs to. Every process derives the same key from the same stored
   * state, so the store can let exactly one of them claim it.
   */
  period: string | null;
  /** When the next refresh is expected (ISO, UTC); `now` when due; null when never. */
  nextAt: string | null;
}

/** Timers may fire a little early or ticks of two processes drift: elapsed-time rules allow this slack. */
const DUE_TOLERANCE_MS = 2_000;

const UNIT_MS: Record<string, number> = Object.fromEntries(Object.entries(UNIT_SECONDS).map(([frequency, seconds]) => [frequency, seconds * 1000]));

const NEVER: DueAnswer = { due: false, period: null, nextAt: null };

/** The weekday helpers live with the schedule's cadence (cadence.ts); the scheduler's callers read them here too. */
export { weekdayName, weekdayNumber };

/** The zone a dashboard's schedule runs in: the project's, else the schedule's, else UTC. */
export function scheduleZone(projectTimezone: string | null | undefined, schedule: ScheduleSpec | null | undefined): string {
  for (const candidate of [projectTimezone, schedule?.timezone]) {
    if (candidate && DateTime.now().setZone(candidate).isValid) return candidate;
  }
  return 'UTC';
}

function slotOn(day: DateTime, time: ScheduleTime | undefined): DateTime {
  // Built from wall-clock fields: luxon moves a time inside a DST gap forward by the gap and
  // resolves an ambiguous time to its second (standard-time) occurrence.
  return DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour: time?.hour ?? 0, minute: time?.minute ?? 0, second: time?.second ?? 0 },
    { zone: day.zone },
  );
}

/** The latest slot at or before `now` and the first one after it, looking at most `span` days around. */
function slotsAround(now: DateTime, time: ScheduleTime | undefined, allowed: (day: DateTime) => boolean, span: number): { last?: DateTime; next?: DateTime } {
  const today = now.startOf('day');
  let last: DateTime | undefined;
  for (let back = 0; back <= span && !last; back++) {
    const day = today.minus({ days: back });
    if (!allowed(day)) continue;
    const slot = slotOn(day, time);
    if (slot <= now) last = slot;
  }
  let next: DateTime | undefined;
  for (let ahead = 0; ahead <= span && !next; ahead++) {
    const day = today.plus({ days: ahead });
    if (!allowed(day)) continue;
    const slot = slotOn(day, time);
    if (slot > now) next = slot;
  }
  return { ...(last ? { last } : {}), ...(next ? { next } : {}) };
}

/**
 * Due-ness of a dashboard's `updateSchedule`.
 * - never refreshed: due now (a `daily` schedule also needs today to be an allowed day);
 * - `daily`: the latest allowed day's `time` has passed and nothing started since;
 * - `weekly`: the latest `dayOfWeek` at `time` has passed and nothing started since;
 * - `every_x_days|hours|minutes`: `frequencyNumber` units have elapsed since the last refresh.
 */
export function dashboardDue(
  schedule: ScheduleSpec | null | undefined,
  state: { timezone: string; lastUpdatedAt: string | null; now: Date },
): DueAnswer {
  if (!schedule || typeof schedule.frequency !== 'string') return NEVER;
  const zone = state.timezone;
  const now = DateTime.fromJSDate(state.now, { zone });
  const nowIso = state.now.toISOString();
  const last = state.lastUpdatedAt === null ? null : DateTime.fromISO(state.lastUpdatedAt, { zone });
  const frequency = schedule.frequency;

  const unit = UNIT_MS[frequency];
  if (unit !== undefined) {
    const n = frequencyNumber(schedule.frequencyNumber);
    if (n === undefined) return NEVER;
    if (!last) return { due: true, period: 'first', nextAt: nowIso };
    const dueAt = last.toMillis() + n * unit;
    const due = state.now.getTime() >= dueAt - DUE_TOLERANCE_MS;
    return due ? { due, period: `after:${last.toUTC().toISO()}`, nextAt: nowIso } : { due, period: null, nextAt: new Date(dueAt).toISOString() };
  }

  let slots: { last?: DateTime; next?: DateTime };
  if (frequency === 'daily') {
    const allowed = allowedWeekdays(schedule.daysOfWeek);
    if (allowed && allowed.size === 0) return NEVER;
    const isAllowed = (day: DateTime) => !allowed || allowed.has(day.weekday);
    slots = slotsAround(now, schedule.time, isAllowed, 7);
    if (!last) {
      if (isAllowed(now)) return { due: true, period: 'first', nextAt: nowIso };
      return { due: false, period: null, nextAt: slots.next ? slots.next.toUTC().toISO() : null };
    }
  } else if (frequency === 'weekly') {
    const weekday = weekdayNumber(schedule.dayOfWeek);
    if (weekday === undefined) return NEVER;
    if (!last) return { due: true, period: 'first', nextAt: nowIso };
    slots = slotsAround(now, schedule.time, (day) => day.weekday === weekday, 7);
  } else {
    return NEVER;
  }

  const latest = slots.last;
  if (latest && (!last || last < latest)) {
    return { due: true, period: `slot:${latest.toUTC().toISO()}`, nextAt: nowIso };
  }
  return { due: false, period: null, nextAt: slots.next ? slots.next.toUTC().toISO() : null };
}

/**
 * Due-ness of a chart's `autoUpdate` (seconds; 0 or null = off): due when that long has elapsed
 * since `lastAutoUpdate`, or at once when it never ran. Markdown charts never refresh.
 */
export function chartDue(chart: { type: string | null; autoUpdate: number | null; lastAutoUpdate: string | null }, now: Date): DueAnswer {
  if (chart.type === 'markdown' || !chart.autoUpdate || chart.autoUpdate <= 0) return NEVER;
  const nowIso = now.toISOString();
  if (chart.lastAutoUpdate === null) return { due: true, period: 'first', nextAt: nowIso };
  const last = Date.parse(chart.lastAutoUpdate);
  const dueAt = last + chart.autoUpdate * 1000;
  const due = now.getTime() >= dueAt - DUE_TOLERANCE_MS;
  return due ? { due, period: `after:${new Date(last).toISOString()}`, nextAt: nowIso } : { due, period: null, nextAt: new Date(dueAt).toISOString() };
}
