/**
 * Turns a date value from a row into epoch milliseconds, once, without allocating:
 * - Date objects: their time;
 * - numbers and all-digit strings of 9+ digits: Unix epochs; below 1e11 they are seconds
 *   (10 digits today), otherwise milliseconds (13 digits);
 * - ISO 8601 strings (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DD[T ]HH:mm[:ss[.fff…]]` with an
 *   optional `Z`, `±HH`, `±HHmm` or `±HH:mm`): parsed by hand; without an offset they are
 *   wall-clock times in the chart's zone (as SQL treats `timestamp without time zone`);
 * - other strings: `Date.parse` as a last resort.
 * Anything else, or an invalid date, gives NaN.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, daysFromCivil, daysInMonth } from './calendar.js';
import type { ZoneClock } from './zone-clock.js';

/** Epoch values below this magnitude are seconds (10 digits covers 1973–5138). */
const SECONDS_LIMIT = 1e11;

export function epochFromNumber(n: number): number {
  if (!Number.isFinite(n)) return NaN;
  return Math.abs(n) < SECONDS_LIMIT ? n * 1000 : n;
}

export function toEpochMs(value: unknown, clock: ZoneClock): number {
  if (typeof value === 'object') {
    if (value instanceof Date) return value.getTime();
    return NaN;
  }
  if (typeof value === 'string') return parseDateString(value, clock);
  if (typeof value === 'number') return epochFromNumber(value);
  if (typeof value === 'bigint') return epochFromNumber(Number(value));
  return NaN;
}

const C0 = 48; // '0'

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - C0;
  return c >= 0 && c <= 9 ? c : -1;
}

function twoDigits(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

export function parseDateString(input: string, clock: ZoneClock): number {
  let s = input;
  let len = s.length;
  if (len === 0) return NaN;
  // Surrounding blanks are rare; trimming allocates, so only do it when needed.
  if (s.charCodeAt(0) <= 32 || s.charCodeAt(len - 1) <= 32) {
    s = s.trim();
    len = s.length;
    if (len === 0) return NaN;
  }
  const first = s.charCodeAt(0);
  if (len >= 9 && (first === 45 || (first >= 48 && first <= 57)) && isNumeric(s)) {
    return epochFromNumber(Number(s));
  }
  const iso = parseIso(s, len, clock);
  if (iso === iso) return iso;
  // An ISO-shaped string that failed the checks (2025-02-30) is invalid; Date.parse would roll it over.
  if (len >= 5 && s.charCodeAt(4) === 45 && twoDigits(s, 0) >= 0 && twoDigits(s, 2) >= 0) return NaN;
  return Date.parse(s);
}

function isNumeric(s: string): boolean {
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  let dot = false;
  if (i >= s.length) return false;
  for (; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c === 46 && !dot) dot = true;
    else if (c < 48 || c > 57) return false;
  }
  return true;
}

/** NaN when `s` is not one of the ISO forms above. */
function parseIso(s: string, len: number, clock: ZoneClock): number {
  if (len < 4) return NaN;
  const y1 = twoDigits(s, 0);
  const y2 = twoDigits(s, 2);
  if (y1 < 0 || y2 < 0) return NaN;
  const year = y1 * 100 + y2;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let ms = 0;
  let i = 4;
  if (i < len) {
    if (s.charCodeAt(i) !== 45) return NaN;
    month = twoDigits(s, 5);
    if (month < 1 || month > 12) return NaN;
    i = 7;
    if (i < len) {
      if (s.charCodeAt(i) !== 45) return NaN;
      day = twoDigits(s, 8);
      if (day < 1 || day > daysInMonth(year, month)) return NaN;
      i = 10;
    }
  }
  let hasTime = false;
  if (i < len) {
    const sep = s.charCodeAt(i);
    if (i !== 10 || (sep !== 84 && sep !== 116 && sep !== 32)) return NaN; // T, t, space
    hour = twoDigits(s, 11);
    if (hour < 0 || hour > 24 || s.charCodeAt(13) !== 58) return NaN;
    minute = twoDigits(s, 14);
    if (minute < 0 || minute > 59) return NaN;
    hasTime = true;
    i = 16;
    if (i < len && s.charCodeAt(i) === 58) {
      second = twoDigits(s, 17);
      if (second < 0 || second > 60) return NaN;
      i = 19;
      const c = s.charCodeAt(i);
      if (i < len && (c === 46 || c === 44)) {
        i += 1;
        let scale = 100;
        const startFraction = i;
        while (i < len) {
          const d = digit(s, i);
          if (d < 0) break;
          ms += d * scale;
          scale /= 10;
          i += 1;
        }
        if (i === startFraction) return NaN;
        ms = Math.floor(ms);
      }
    }
  }
  const wall = daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + ms;
  if (i === len) return clock.wallToInstant(wall);
  if (!hasTime) return NaN;
  // Optional blank before the zone designator (`2025-01-01 10:00:00 +00:00`).
  if (s.charCodeAt(i) === 32) i += 1;
  const z = s.charCodeAt(i);
  if ((z === 90 || z === 122) && i + 1 === len) return wall; // Z
  if (z !== 43 && z !== 45) return NaN;
  const oh = twoDigits(s, i + 1);
  if (oh < 0) return NaN;
  let om = 0;
  let j = i + 3;
  if (j < len) {
    if (s.charCodeAt(j) === 58) j += 1;
    om = twoDigits(s, j);
    if (om < 0) return NaN;
    j += 2;
  }
  if (j !== len) return NaN;
  const offset = (oh * 60 + om) * MINUTE_MS;
  return z === 43 ? wall - offset : wall + offset;
}
