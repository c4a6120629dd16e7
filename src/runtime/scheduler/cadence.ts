/*
 * How often a refresh schedule runs, and whether a chart's saved data is overdue by it: one rule
 * for every place that marks a card (the report and embed pages and the server's pictures, where
 * the server applies it because the schedule is not public; the editor, which reads the schedule
 * with the dashboard). No imports: the editor's bundle takes this file as it is.
 *
 * The rule is conservative. A chart is overdue only once its data is older than twice the longest
 * gap between two scheduled refreshes plus OVERDUE_MARGIN_MS, counted from when the data was
 * computed or, when later, from when the schedule may last have changed (the chart or the
 * dashboard saved): a refresh that is merely due, queued or running never marks it, and neither
 * does a schedule set a minute ago over old data. Daylight-saving days (23 or 25 hours) fit in the
 * doubling.
 */

/** What a card says of a chart whose data is overdue: when its data was computed, and how often it should be. */
export interface RefreshOverdue {
  /** `chartDataUpdated`: when the data shown was computed. */
  since: string;
  /** The period the chart should be refreshed at, in seconds (the shortest of its schedules that it missed). */
  everySeconds: number;
}

/** A dashboard's `updateSchedule` as stored (Chartbrew's fields; unknown values are no schedule). */
export interface ScheduleFields {
  frequency?: unknown;
  frequencyNumber?: unknown;
  dayOfWeek?: unknown;
  daysOfWeek?: unknown;
}

/** A schedule's period in seconds, and the longest wait between two of its refreshes. */
export interface Cadence {
  everySeconds: number;
  longestGapSeconds: number;
}

export interface OverdueInput {
  type: string | null | undefined;
  chartDataUpdated: string | null | undefined;
  /** The chart's own schedule: seconds between refreshes; 0 or null = none. */
  autoUpdate: number | null | undefined;
  /** When the chart was last saved: its `autoUpdate` counts from then at the earliest. */
  chartUpdatedAt?: string | null | undefined;
  /** The dashboard's `updateSchedule`. */
  updateSchedule: unknown;
  /** When the dashboard was last saved: its schedule counts from then at the earliest. */
  dashboardUpdatedAt?: string | null | undefined;
}

/** Slack above twice the longest gap: the scheduler's minute tick, a queue, a long dashboard refresh. */
export const OVERDUE_MARGIN_MS = 15 * 60_000;

const DAY_SECONDS = 86_400;

/** Seconds per unit of the elapsed-time frequencies. */
export const UNIT_SECONDS: Readonly<Record<string, number>> = {
  every_x_minutes: 60,
  every_x_hours: 3_600,
  every_x_days: DAY_SECONDS,
};

const WEEKDAY_NUMBERS: Readonly<Record<string, number>> = {
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
  sunday: 7,
};

/** A weekday as 1-7 (Monday = 1) from a number or a name; undefined when it is neither. */
export function weekdayNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 && value <= 7 ? value : undefined;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (/^[1-7]$/.test(lower)) return Number(lower);
    return WEEKDAY_NUMBERS[lower];
  }
  return undefined;
}

/** A weekday's name as Chartbrew writes it (`monday`) from 1-7 (Monday = 1). */
export function weekdayName(day: number): string | undefined {
  return Object.keys(WEEKDAY_NUMBERS).find((name) => WEEKDAY_NUMBERS[name] === day);
}

/** The frequency number as a positive integer, or undefined. */
export function frequencyNumber(raw: unknown): number | undefined {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** Allowed weekdays of a daily schedule: undefined = every day, an empty set = none. */
export function allowedWeekdays(daysOfWeek: unknown): Set<number> | undefined {
  if (daysOfWeek === undefined || daysOfWeek === null) return undefined;
  const days = new Set<number>();
  if (!Array.isArray(daysOfWeek)) return days;
  for (const value of daysOfWeek) {
    const n = weekdayNumber(value);
    if (n !== undefined) days.add(n);
  }
  return days;
}

/**
 * How often a dashboard's schedule refreshes; null when it never does (no schedule, an unknown
 * frequency, a bad number, no allowed day). A daily schedule on some weekdays only refreshes every
 * day it may (its period: the shortest gap between two of its days), and waits at most its
 * longest gap (Friday to Monday: 3 days).
 */
export function scheduleCadence(schedule: unknown): Cadence | null {
  if (typeof schedule !== 'object' || schedule === null) return null;
  const fields = schedule as ScheduleFields;
  const frequency = fields.frequency;
  if (typeof frequency !== 'string') return null;
  const unit = UNIT_SECONDS[frequency];
  if (unit !== undefined) {
    const n = frequencyNumber(fields.frequencyNumber);
    return n === undefined ? null : { everySeconds: n * unit, longestGapSeconds: n * unit };
  }
  if (frequency === 'weekly') return weekdayNumber(fields.dayOfWeek) === undefined ? null : { everySeconds: 7 * DAY_SECONDS, longestGapSeconds: 7 * DAY_SECONDS };
  if (frequency !== 'daily') return null;
  const allowed = allowedWeekdays(fields.daysOfWeek);
  if (allowed === undefined) return { everySeconds: DAY_SECONDS, longestGapSeconds: DAY_SECONDS };
  const days = [...allowed].sort((a, b) => a - b);
  if (days.length === 0) return null;
  // Gaps between consecutive allowed days, the last one wrapping round to the first next week.
  const gaps = days.map((day, i) => (i + 1 < days.length ? days[i + 1]! - day : days[0]! + 7 - day));
  return { everySeconds: Math.min(...gaps) * DAY_SECONDS, longestGapSeconds: Math.max(...gaps) * DAY_SECONDS };
}

/** A chart's own `autoUpdate` (seconds) as a cadence; null when it is off. */
export function autoUpdateCadence(autoUpdate: number | null | undefined): Cadence | null {
  return typeof autoUpdate === 'number' && Number.isFinite(autoUpdate) && autoUpdate > 0 ? { everySeconds: autoUpdate, longestGapSeconds: autoUpdate } : null;
}

const time = (iso: string | null | undefined): number => (typeof iso === 'string' ? Date.parse(iso) : NaN);

/**
 * Whether the chart's saved data is overdue at `now`, and by which schedule (the shortest of those
 * it missed); null when it is not, or when the chart has no schedule, no data yet, or is a
 * markdown chart (never refreshed). A failed refresh is the card's other mark (`lastError`): the
 * card shows that one instead, and this rule does not look at it.
 */
export function refreshOverdue(input: OverdueInput, now: Date): RefreshOverdue | null {
  if (input.type === 'markdown') return null;
  const data = time(input.chartDataUpdated);
  if (Number.isNaN(data)) return null;
  const schedules = [
    { cadence: autoUpdateCadence(input.autoUpdate), changed: time(input.chartUpdatedAt) },
    { cadence: scheduleCadence(input.updateSchedule), changed: time(input.dashboardUpdatedAt) },
  ];
  let missed: Cadence | null = null;
  for (const { cadence, changed } of schedules) {
    if (!cadence) continue;
    const from = Number.isNaN(changed) ? data : Math.max(data, changed);
    const overdue = now.getTime() - from > 2 * cadence.longestGapSeconds * 1000 + OVERDUE_MARGIN_MS;
    if (overdue && (!missed || cadence.everySeconds < missed.everySeconds)) missed = cadence;
  }
  return missed ? { since: input.chartDataUpdated!, everySeconds: missed.everySeconds } : null;
}
