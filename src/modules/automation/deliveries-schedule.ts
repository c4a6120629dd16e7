import { DateTime } from 'luxon';
import { ValidationError } from '../../errors/index.js';
import { frequencyNumber } from '../../runtime/scheduler/cadence.js';
import { dashboardDue, weekdayNumber, type DueAnswer, type ScheduleSpec } from '../../runtime/scheduler/due.js';
import {
  DELIVERY_FREQUENCIES,
  FREQUENCY_BOUNDS,
  isElapsedFrequency,
  type DeliveryFrequency,
  type ElapsedFrequency,
  type SlotFrequency,
} from './deliveries-frequencies.js';

/*
 * When a subscription delivers: the refresh scheduler's schedule model (src/runtime/scheduler/due.ts),
 * with the frequencies people ask a delivery for:
 * - wall-clock slots in a time zone (a slot done when a delivery started at or after it, missed
 *   slots collapsed into one catch-up): `daily` at `time` (optionally only on `daysOfWeek`),
 *   `weekdays` (Monday to Friday), `weekly` on `dayOfWeek`, `monthly` on `dayOfMonth` (a day past
 *   the month's end is its last day);
 * - Chartbrew's elapsed time: `every_x_days|hours|minutes`, `frequencyNumber` units after the
 *   last delivery (the scheduler's own rule, so a daylight-saving hour is not special).
 * A subscription that never delivered counts from its creation: it waits for its first slot, or
 * for one interval (docs/decisions/0040-deliveries-every-n.md).
 */

export { DELIVERY_FREQUENCIES, type DeliveryFrequency };

/** A schedule on the wall clock of `timezone`. */
export interface SlotSchedule {
  frequency: SlotFrequency;
  time: { hour: number; minute: number };
  timezone: string;
  dayOfWeek?: number;
  dayOfMonth?: number;
  daysOfWeek?: number[];
}

/** A schedule of elapsed time: no `time`, no day; `timezone` is kept for the dashboard's snapshot dialog. */
export interface ElapsedSchedule {
  frequency: ElapsedFrequency;
  frequencyNumber: number;
  timezone: string;
}

export type DeliverySchedule = SlotSchedule | ElapsedSchedule;

/** A schedule as a body may send it (weekday names or numbers; `frequencyNumber` as a number or digits). */
export interface DeliveryScheduleInput {
  frequency: string;
  frequencyNumber?: number | string;
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
  const timezone = input.timezone ?? 'UTC';
  if (!DateTime.now().setZone(timezone).isValid) throw ValidationError.field(`${path}.timezone`, 'is not a known IANA time zone');
  if (isElapsedFrequency(input.frequency)) return { frequency: input.frequency, frequencyNumber: parseFrequencyNumber(input.frequency, input.frequencyNumber, path), timezone };
  const frequency = input.frequency as SlotFrequency;
  const hour = input.time?.hour ?? 9;
  const minute = input.time?.minute ?? 0;
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw ValidationError.field(`${path}.time.hour`, 'must be an integer from 0 to 23');
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw ValidationError.field(`${path}.time.minute`, 'must be an integer from 0 to 59');
  const schedule: SlotSchedule = { frequency, time: { hour, minute }, timezone };
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
 * `frequencyNumber` of an elapsed-time schedule, within its bounds (FREQUENCY_BOUNDS). Chartbrew
 * sends it as a number or as digits; it is stored as a number.
 */
function parseFrequencyNumber(frequency: ElapsedFrequency, raw: unknown, path: string): number {
  const { unit, min, max } = FREQUENCY_BOUNDS[frequency];
  const field = `${path}.frequencyNumber`;
  if (raw === undefined || raw === null || raw === '') throw ValidationError.field(field, `is required for ${frequency}: a whole number of ${unit} from ${min} to ${max}`);
  const n = frequencyNumber(raw);
  if (n === undefined || n > max) throw ValidationError.field(field, `must be a whole number of ${unit} from ${min} to ${max}`);
  if (n < min) throw ValidationError.field(field, `must be at least ${min}: a delivery is sent at most every ${min} ${unit}`);
  return n;
}

/**
 * Due-ness of a subscription: its latest slot has passed and nothing was delivered since (or since
 * it was created), or its interval has elapsed since the last delivery (or its creation). `period`
 * names the slot (`slot:<instant>`) or the delivery it follows (`after:<instant>`), the same in
 * every process, for the claim row.
 */
export function deliveryDue(schedule: DeliverySchedule, state: { lastSentAt: string | null; createdAt: string; now: Date }): DueAnswer {
  const since = state.lastSentAt ?? state.createdAt;
  const due = (spec: ScheduleSpec) => dashboardDue(spec, { timezone: schedule.timezone, lastUpdatedAt: since, now: state.now });
  switch (schedule.frequency) {
    case 'every_x_days':
    case 'every_x_hours':
    case 'every_x_minutes':
      return due({ frequency: schedule.frequency, frequencyNumber: schedule.frequencyNumber });
    case 'monthly':
      return monthlyDue(schedule, since, state.now);
    case 'weekly':
      return due({ frequency: 'weekly', time: schedule.time, dayOfWeek: schedule.dayOfWeek ?? 1 });
    case 'weekdays':
      return due({ frequency: 'daily', time: schedule.time, daysOfWeek: WEEKDAYS });
    case 'daily':
      return due({ frequency: 'daily', time: schedule.time, ...(schedule.daysOfWeek ? { daysOfWeek: schedule.daysOfWeek } : {}) });
  }
}

function monthSlot(month: DateTime, schedule: SlotSchedule): DateTime {
  const day = Math.min(schedule.dayOfMonth ?? 1, month.daysInMonth ?? 28);
  return DateTime.fromObject({ year: month.year, month: month.month, day, hour: schedule.time.hour, minute: schedule.time.minute }, { zone: month.zone });
}

function monthlyDue(schedule: SlotSchedule, since: string, at: Date): DueAnswer {
  const now = DateTime.fromJSDate(at, { zone: schedule.timezone });
  const thisMonth = monthSlot(now.startOf('month'), schedule);
  const latest = thisMonth <= now ? thisMonth : monthSlot(now.startOf('month').minus({ months: 1 }), schedule);
  const next = thisMonth > now ? thisMonth : monthSlot(now.startOf('month').plus({ months: 1 }), schedule);
  const last = DateTime.fromISO(since, { zone: schedule.timezone });
  if (last < latest) return { due: true, period: `slot:${latest.toUTC().toISO()}`, nextAt: at.toISOString() };
  return { due: false, period: null, nextAt: next.toUTC().toISO() };
}
