/**
 * Date ranges of dashboard date filters: a named preset ("last_30_days", "this_quarter", …) or a
 * custom range, resolved in the dashboard's time zone to two instants, the start of the first day
 * and the end (last millisecond) of the last day. Weeks start on Monday (ISO weeks). Resolved once
 * per run, never per row; pure: `now` is given.
 */
import { DateTime } from 'luxon';
import { InvalidChartConfigError } from './errors.js';
import { ZoneClock } from './zone-clock.js';

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last_7_days',
  'last_30_days',
  'last_90_days',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'this_quarter',
  'last_quarter',
  'this_year',
  'last_year',
  'custom',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export function isDatePreset(value: unknown): value is DatePreset {
  return typeof value === 'string' && (DATE_PRESETS as readonly string[]).includes(value);
}

/** A range as ISO instants (UTC, milliseconds); a missing bound is an open side. */
export interface DateRange {
  startDate: string | null;
  endDate: string | null;
}

export interface DateRangeInput {
  preset?: DatePreset | null | undefined;
  /** For `custom` (or no preset): an ISO date (a whole day in the zone) or date-time. */
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
}

/** `YYYY-MM-DD`: a calendar day, read in the dashboard's zone. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A date-time; with an offset or `Z` it is that instant, without one it is read in the zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** Whether `value` is a date or date-time a range bound may be. */
export function isRangeBound(value: string): boolean {
  return (DATE_ONLY.test(value) || DATE_TIME.test(value)) && DateTime.fromISO(value, { zone: 'UTC' }).isValid;
}

/**
 * The instants a preset or a custom range covers in `timezone` at `now`. "last_7_days" is the
 * seven days ending today, today included; "this_…" runs to the end of the current period (the
 * future part of it included). Throws InvalidChartConfigError naming `preset`, `startDate`,
 * `endDate` or `timezone` when the input cannot make a range.
 */
export function resolveDateRange(input: DateRangeInput, timezone: string | null | undefined, now: Date): DateRange {
  const zone = ZoneClock.of(timezone).zone;
  const preset = input.preset ?? 'custom';
  if (!isDatePreset(preset)) throw new InvalidChartConfigError('preset', `must be one of ${DATE_PRESETS.join(', ')}`);
  if (preset === 'custom') return customRange(input, zone);
  const today = DateTime.fromMillis(now.getTime(), { zone }).startOf('day');
  const [start, end] = presetBounds(preset, today);
  return { startDate: iso(start), endDate: iso(end) };
}

function presetBounds(preset: Exclude<DatePreset, 'custom'>, today: DateTime): [DateTime, DateTime] {
  const period = (unit: 'week' | 'month' | 'quarter' | 'year', back: number): [DateTime, DateTime] => {
    const day = today.minus({ [unit]: back });
    return [day.startOf(unit), day.endOf(unit)];
  };
  const lastDays = (n: number): [DateTime, DateTime] => [today.minus({ days: n - 1 }), today.endOf('day')];
  switch (preset) {
    case 'today':
      return [today, today.endOf('day')];
    case 'yesterday': {
      const day = today.minus({ days: 1 });
      return [day, day.endOf('day')];
    }
    case 'last_7_days':
      return lastDays(7);
    case 'last_30_days':
      return lastDays(30);
    case 'last_90_days':
      return lastDays(90);
    case 'this_week':
      return period('week', 0);
    case 'last_week':
      return period('week', 1);
    case 'this_month':
      return period('month', 0);
    case 'last_month':
      return period('month', 1);
    case 'this_quarter':
      return period('quarter', 0);
    case 'last_quarter':
      return period('quarter', 1);
    case 'this_year':
      return period('year', 0);
    case 'last_year':
      return period('year', 1);
  }
}

function customRange(input: DateRangeInput, zone: ZoneClock['zone']): DateRange {
  const start = bound(input.startDate, zone, 'startDate', 'start');
  const end = bound(input.endDate, zone, 'endDate', 'end');
  if (start === null && end === null) throw new InvalidChartConfigError('startDate', 'a custom range needs startDate and/or endDate');
  if (start !== null && end !== null && start > end) throw new InvalidChartConfigError('endDate', 'must not be before startDate');
  return { startDate: start === null ? null : iso(start), endDate: end === null ? null : iso(end) };
}

/** A date is its whole day in the zone (its first or last millisecond); a date-time is its instant. */
function bound(value: string | null | undefined, zone: ZoneClock['zone'], name: string, side: 'start' | 'end'): DateTime | null {
  if (value === null || value === undefined || value === '') return null;
  if (DATE_ONLY.test(value)) {
    const day = DateTime.fromISO(value, { zone });
    if (!day.isValid) throw new InvalidChartConfigError(name, `"${value}" is not a date`);
    return side === 'start' ? day.startOf('day') : day.endOf('day');
  }
  const instant = DATE_TIME.test(value) ? DateTime.fromISO(value, { zone, setZone: false }) : undefined;
  if (!instant?.isValid) throw new InvalidChartConfigError(name, `"${value}" is not an ISO 8601 date or date-time`);
  return instant;
}

function iso(value: DateTime): string {
  return new Date(value.toMillis()).toISOString();
}
