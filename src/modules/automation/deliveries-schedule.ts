import { DateTime } from 'luxon';
import { ValidationError } from '../../errors/index.js';
import { dashboardDue, weekdayNumber, type DueAnswer, type ScheduleSpec } from '../../runtime/scheduler/due.js';

/*
 * When a subscription delivers: the refresh scheduler's schedule model (wall-clock slots in a time
 * zone, a slot done when a delivery started at or after it, missed slots collapsed into one
 * catch-up), with the frequencies people ask a delivery for:
 * - `daily` at `time` (optionally only on `daysOfWeek`), `weekdays` (Monday to Friday),
 * - `weekly` on `dayOfWeek`, `monthly` on `dayOfMonth` (a day past the month's end is its last day).
 * A subscription that never delivered counts from its creation: it waits for its first slot.
 */

export const DELIVERY_FREQUENCIES = ['daily', 'weekdays', 'weekly', 'monthly'] as const;
export type DeliveryFrequency = (typeof DELIVERY_FREQUENCIES)[number];

export interface DeliverySchedule {
  frequency: DeliveryFrequency;
  time: { hour: number; minute: number };
  timezone: string;
  dayOfWeek?: number;
  dayOfMonth?: number;
  daysOfWeek?: number[];
}

/** A schedule as a body may send it (weekday names or numbers). */
export interface DeliveryScheduleInput {
  frequency: string;
  time?: { hour?: number; minute?: number };
  timezone?: string;
  dayOfWeek?: number | string;
  dayOfMonth?: number;
  daysOfWeek?: (number | string)[];
}

const WEEKDAYS = [1, 2, 3, 4, 5];

/** Validates a schedule (400 naming the field) into its stored form. */
export function parseSchedule(input: DeliveryScheduleInput, path: string): DeliverySchedule {
  if (!(DELIVERY_FREQUENCIES as readonly string[]).includes(input.frequency)) {
    throw ValidationError.field(`${path}.frequency`, `must be one of: ${DELIVERY_FREQUENCIES.join(', ')}`);
  }
  const frequency = input.frequency as DeliveryFrequency;
  const hour = input.time?.hour ?? 9;
  const minute = input.time?.minute ?? 0;
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw ValidationError.field(`${path}.time.hour`, 'must be an integer from 0 to 23');
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw ValidationError.field(`${path}.time.minute`, 'must be an integer from 0 to 59');
  const timezone = input.timezone ?? 'UTC';
  if (!DateTime.now().setZone(timezone).isValid) throw ValidationError.field(`${path}.timezone`, 'is not a known IANA time zone');
  const schedule: DeliverySchedule = { frequency, time: { hour, minute }, timezone };
  if (frequency === 'weekly') {
    const day = weekdayNumber(input.dayOfWeek);
    if (day === undefined) throw ValidationError.field(`${path}.dayOfWeek`, 'is required for a weekly schedule: 1-7 (Monday = 1) or a day name');
    schedule.dayOfWeek = day;
  }
  if (frequency === 'monthly') {
    const day = input.dayOfMonth;
    if (day === undefined || !Number.isInteger(day) || day < 1 || day > 31) throw ValidationError.field(`${path}.dayOfMonth`, 'is required for a monthly schedule: 1-31 (past the month\'s end means its last day)');
    schedule.dayOfMonth = day;
  }
  if (frequency === 'daily' && input.daysOfWeek !== undefined) {
    const days = input.daysOfWeek.map((d, i) => {
      const n = weekdayNumber(d);
      if (n === undefined) throw ValidationError.field(`${path}.daysOfWeek.${i}`, 'must be 1-7 (Monday = 1) or a day name');
      return n;
    });
    if (days.length === 0) throw ValidationError.field(`${path}.daysOfWeek`, 'must name at least one day');
    schedule.daysOfWeek = [...new Set(days)].sort();
  }
  return schedule;
}

/**
 * Due-ness of a subscription: its latest slot has passed and nothing was delivered since (or since
 * it was created). `period` names the slot, the same in every process, for the claim row.
 */
export function deliveryDue(schedule: DeliverySchedule, state: { lastSentAt: string | null; createdAt: string; now: Date }): DueAnswer {
  const since = state.lastSentAt ?? state.createdAt;
  if (schedule.frequency === 'monthly') return monthlyDue(schedule, since, state.now);
  const spec: ScheduleSpec =
    schedule.frequency === 'weekly'
      ? { frequency: 'weekly', time: schedule.time, dayOfWeek: schedule.dayOfWeek ?? 1 }
      : { frequency: 'daily', time: schedule.time, ...(schedule.frequency === 'weekdays' ? { daysOfWeek: WEEKDAYS } : schedule.daysOfWeek ? { daysOfWeek: schedule.daysOfWeek } : {}) };
  return dashboardDue(spec, { timezone: schedule.timezone, lastUpdatedAt: since, now: state.now });
}

function monthSlot(month: DateTime, schedule: DeliverySchedule): DateTime {
  const day = Math.min(schedule.dayOfMonth ?? 1, month.daysInMonth ?? 28);
  return DateTime.fromObject({ year: month.year, month: month.month, day, hour: schedule.time.hour, minute: schedule.time.minute }, { zone: month.zone });
}

function monthlyDue(schedule: DeliverySchedule, since: string, at: Date): DueAnswer {
  const now = DateTime.fromJSDate(at, { zone: schedule.timezone });
  const thisMonth = monthSlot(now.startOf('month'), schedule);
  const latest = thisMonth <= now ? thisMonth : monthSlot(now.startOf('month').minus({ months: 1 }), schedule);
  const next = thisMonth > now ? thisMonth : monthSlot(now.startOf('month').plus({ months: 1 }), schedule);
  const last = DateTime.fromISO(since, { zone: schedule.timezone });
  if (last < latest) return { due: true, period: `slot:${latest.toUTC().toISO()}`, nextAt: at.toISOString() };
  return { due: false, period: null, nextAt: next.toUTC().toISO() };
}

/** How long a period of the schedule is, for "data no older than its period". */
export function periodMs(schedule: DeliverySchedule): number {
  switch (schedule.frequency) {
    case 'daily':
    case 'weekdays':
      return 86_400_000;
    case 'weekly':
      return 7 * 86_400_000;
    case 'monthly':
      return 28 * 86_400_000;
  }
}
