/**
 * Proleptic Gregorian calendar arithmetic on plain numbers (days since 1970-01-01), so the
 * per-row path can find a day, week, month or year without creating a Date.
 * The day/civil conversions follow Howard Hinnant's public-domain algorithms.
 */

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of the given civil date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Year of a day number. */
export function yearOfDay(days: number): number {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  return yoe + era * 400 + (mp >= 10 ? 1 : 0);
}

/** Day number of the first day of the month containing `days`. */
export function monthStartDay(days: number): number {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const dayOfMonth0 = doy - Math.floor((153 * mp + 2) / 5);
  return days - dayOfMonth0;
}

/** Day number of the first day of the year containing `days`. */
export function yearStartDay(days: number): number {
  return daysFromCivil(yearOfDay(days), 1, 1);
}

/** ISO weekday index with Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday). */
export function mondayIndex(days: number): number {
  return (((days + 3) % 7) + 7) % 7;
}

export interface CivilDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** Splits milliseconds since the epoch (read as wall-clock time) into calendar fields. */
export function civilFromMs(ms: number): CivilDateTime {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / HOUR_MS);
  rest -= hour * HOUR_MS;
  const minute = Math.floor(rest / MINUTE_MS);
  rest -= minute * MINUTE_MS;
  const second = Math.floor(rest / SECOND_MS);
  return { year, month, day, hour, minute, second, millisecond: rest - second * SECOND_MS };
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** ISO 8601 week-numbering year and week of a day number (the week's Thursday decides the year). */
export function isoWeekOfDay(days: number): { year: number; week: number } {
  const thursday = days - mondayIndex(days) + 3;
  const year = yearOfDay(thursday);
  const week = Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1;
  return { year, week };
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pad4(n: number): string {
  if (n >= 0 && n < 10_000) return String(n).padStart(4, '0');
  return String(n);
}

/** `YYYY-MM-DD` of a wall-clock millisecond value. */
export function formatWall(wallMs: number, precision: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'): string {
  const c = civilFromMs(wallMs);
  switch (precision) {
    case 'year':
      return pad4(c.year);
    case 'month':
      return `${pad4(c.year)}-${pad2(c.month)}`;
    case 'day':
      return `${pad4(c.year)}-${pad2(c.month)}-${pad2(c.day)}`;
    case 'hour':
      return `${pad4(c.year)}-${pad2(c.month)}-${pad2(c.day)} ${pad2(c.hour)}:00`;
    case 'minute':
      return `${pad4(c.year)}-${pad2(c.month)}-${pad2(c.day)} ${pad2(c.hour)}:${pad2(c.minute)}`;
    case 'second':
      return `${pad4(c.year)}-${pad2(c.month)}-${pad2(c.day)} ${pad2(c.hour)}:${pad2(c.minute)}:${pad2(c.second)}`;
  }
}

/** `+HH:MM` / `-HH:MM` for an offset in milliseconds. */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.round(Math.abs(offsetMs) / MINUTE_MS);
  return `${sign}${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`;
}
