/**
 * A time axis's labels in the chart's own date format (`dateFormat` of its dataset configurations,
 * the editor's "Date format"): `2025-01` becomes `Jan 2025` with `MMM yyyy`. Without a format the
 * labels stay the API's sortable forms (`2025`, `2025-01`, `2025-01-06`, `2025-01-06 10:00`).
 *
 * Formats are luxon's tokens (`MMM yyyy`, `dd/MM`, `HH:mm`); Chartbrew's clients write moment's
 * (`MMM YYYY`, `DD/MM`, `Do MMM`), so a format that names the year with `Y` is read as moment's and
 * translated. The labels are wall times already (the buckets are in the dashboard's zone), so they
 * are formatted as they read, never shifted by a zone. Only the labels change: the buckets, their
 * order and every value stay as they were.
 */
import { DateTime } from 'luxon';

const LABEL = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?)?)?(.*)$/;

/** The first non-empty date format of the chart's datasets, as luxon tokens; null when none is set. */
export function chartDateFormat(formats: ReadonlyArray<string | null | undefined>): string | null {
  const format = formats.find((f) => typeof f === 'string' && f.trim() !== '');
  return format === undefined || format === null ? null : luxonFormat(format.trim());
}

/** Moment's tokens, as Chartbrew writes them, in luxon's; a luxon format is returned as it is. */
export function luxonFormat(format: string): string {
  if (!/Y/.test(format)) return format;
  let out = '';
  // Moment's [literal text] is luxon's 'literal text'; the rest is read token by token.
  for (const part of format.split(/(\[[^\]]*\])/)) {
    if (part.startsWith('[') && part.endsWith(']')) {
      out += `'${part.slice(1, -1).replaceAll("'", "''")}'`;
      continue;
    }
    out += part.replace(/YYYY|YY|Do|DD|D|dddd|ddd|A|a/g, (token) => MOMENT_TO_LUXON[token] ?? token);
  }
  return out;
}

const MOMENT_TO_LUXON: Record<string, string> = { YYYY: 'yyyy', YY: 'yy', Do: 'd', DD: 'dd', D: 'd', dddd: 'cccc', ddd: 'ccc', A: 'a', a: 'a' };

/** One label in the format; a label that is not a bucket's (it cannot be read) is left as it is. */
export function formatTimeLabel(label: string, format: string): string {
  const m = LABEL.exec(label);
  if (!m) return label;
  const [, year, month, day, hour, minute, second, rest] = m;
  const at = DateTime.fromObject(
    { year: Number(year), month: Number(month ?? 1), day: Number(day ?? 1), hour: Number(hour ?? 0), minute: Number(minute ?? 0), second: Number(second ?? 0) },
    { zone: 'UTC', locale: 'en-US' },
  );
  if (!at.isValid) return label;
  // A wall time that happens twice on a DST change keeps its offset after the formatted text.
  return `${at.toFormat(format)}${rest ?? ''}`;
}
