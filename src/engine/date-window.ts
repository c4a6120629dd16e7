/**
 * The chart's date window, resolved once per run in the chart's zone:
 * - `startDate` is taken from the start of its local day (its exact instant with
 *   `fixedStartDate`), `endDate` to the end of its local day;
 * - `currentEndDate` makes the window roll: it keeps its length in whole `timeInterval` units and
 *   ends at the end of the current unit (`now`); the start moves with it to the start of its
 *   unit, unless `fixedStartDate` pins it.
 * Either bound may be missing (open window). Bounds are epoch milliseconds, both inclusive.
 */
import { DateTime, type DateTimeUnit } from 'luxon';
import { toEpochMs } from './date-value.js';
import { InvalidChartConfigError } from './errors.js';
import type { DateInput, TimeInterval } from './types.js';
import type { ZoneClock } from './zone-clock.js';

export interface DateWindow {
  start: number | null;
  end: number | null;
}

export interface DateWindowSettings {
  startDate?: DateInput | null;
  endDate?: DateInput | null;
  currentEndDate?: boolean | null;
  fixedStartDate?: boolean | null;
  now?: Date;
}

function parseBound(value: DateInput | null | undefined, clock: ZoneClock, name: string): DateTime | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = toEpochMs(value, clock);
  if (ms !== ms) throw new InvalidChartConfigError(name, `"${String(value)}" is not a date`);
  return DateTime.fromMillis(ms, { zone: clock.zone });
}

export function resolveDateWindow(settings: DateWindowSettings, interval: TimeInterval, clock: ZoneClock): DateWindow | null {
  const rawStart = parseBound(settings.startDate, clock, 'startDate');
  const rawEnd = parseBound(settings.endDate, clock, 'endDate');
  if (rawStart === null && rawEnd === null) return null;
  const unit: DateTimeUnit = interval;
  const fixedStart = settings.fixedStartDate === true;
  const rolling = settings.currentEndDate === true;

  let start = rawStart === null ? null : fixedStart ? rawStart : rawStart.startOf('day');
  let end = rawEnd === null ? null : rawEnd.endOf('day');
  if (rolling) {
    const now = DateTime.fromMillis((settings.now ?? new Date()).getTime(), { zone: clock.zone });
    const newEnd = now.endOf(unit);
    if (start !== null && end !== null && !fixedStart) {
      const span = Math.max(0, Math.floor(end.diff(start, unit).as(unit)));
      start = newEnd.minus({ [unit]: span }).startOf(unit);
    } else if (start !== null && !fixedStart) {
      start = start.startOf(unit);
    }
    end = newEnd;
  }
  return { start: start === null ? null : start.toMillis(), end: end === null ? null : end.toMillis() };
}
