import { DateTime, IANAZone } from 'luxon';
import { ValidationError } from '../../errors/index.js';

/*
 * When a share policy or a share token stops working, as its writers send it: an ISO 8601
 * date-time with its zone (`2030-12-31T23:59:59Z`, `…+02:00`), or a wall-clock time without one.
 * Chartbrew's web app sends the value of a `datetime-local` input (`2026-12-01T10:00`: no seconds,
 * no zone); such a time is read in the dashboard's time zone, else in UTC, the zone its dates are
 * shown in. `Date.parse` alone would read it in the server's own zone, and also take "March 7".
 */

/** A date, then optionally a time (minutes at least, `T` or a space), then optionally a zone. */
const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

export interface ExpiryRules {
  /** Where the value was sent (`body.expires_at`), named by the 400. */
  path: string;
  /** Whether a date alone (midnight, in the zone) is taken. */
  dateOnly: boolean;
}

/**
 * The instant `raw` names, or a 400 naming `rules.path`. `timezone` is the dashboard's (an IANA
 * name); a zone-less value is read there, or in UTC when the dashboard has none.
 */
export function parseShareInstant(raw: string, timezone: string | null, rules: ExpiryRules): Date {
  const value = raw.trim();
  const match = INSTANT.exec(value);
  const [, date, time, offset] = match ?? [];
  if (date === undefined || (time === undefined && !rules.dateOnly)) throw invalid(rules);
  const zone = offset !== undefined ? 'UTC' : timezone !== null && IANAZone.isValidZone(timezone) ? timezone : 'UTC';
  // luxon reads an offset in the text as that offset, and a zone-less text in `zone`.
  const parsed = DateTime.fromISO(time === undefined ? date : `${date}T${time}${offset ?? ''}`, { zone });
  if (!parsed.isValid) throw invalid(rules);
  return parsed.toJSDate();
}

function invalid(rules: ExpiryRules): ValidationError {
  const forms = rules.dateOnly ? 'an ISO 8601 date or date-time' : 'an ISO 8601 date-time';
  return ValidationError.field(rules.path, `must be ${forms} such as 2030-12-31T23:59:59Z, or a local time such as 2030-12-31T23:59 (read in the dashboard's time zone)`);
}
