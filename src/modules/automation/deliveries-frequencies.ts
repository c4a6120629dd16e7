/*
 * The frequencies a delivery may have, and how often an elapsed-time one may send: one list for
 * the server's validation (deliveries-schedule.ts) and the editor's form, which offers the same
 * numbers. No imports: the editor's bundle takes this file as it is.
 */

/** Wall-clock slots: at `time` in `timezone`. */
export const SLOT_FREQUENCIES = ['daily', 'weekdays', 'weekly', 'monthly'] as const;
export type SlotFrequency = (typeof SLOT_FREQUENCIES)[number];

/** Chartbrew's elapsed-time frequencies: `frequencyNumber` units after the last delivery. */
export const ELAPSED_FREQUENCIES = ['every_x_days', 'every_x_hours', 'every_x_minutes'] as const;
export type ElapsedFrequency = (typeof ELAPSED_FREQUENCIES)[number];

export const DELIVERY_FREQUENCIES = [...SLOT_FREQUENCIES, ...ELAPSED_FREQUENCIES] as const;
export type DeliveryFrequency = (typeof DELIVERY_FREQUENCIES)[number];

export interface FrequencyBounds {
  /** The unit in words, plural: `minutes`. */
  unit: string;
  min: number;
  max: number;
}

/**
 * The `frequencyNumber` an elapsed-time delivery may have. Every delivery refreshes, draws and
 * sends what it shows, to people: more often than every 15 minutes is a load on the sources and a
 * flood for the recipients, not a report (a live view is the dashboard's own refresh schedule).
 * Minutes stop at a day (past it, hours say it better), hours and days at a year.
 */
export const FREQUENCY_BOUNDS: Readonly<Record<ElapsedFrequency, FrequencyBounds>> = {
  every_x_minutes: { unit: 'minutes', min: 15, max: 1_440 },
  every_x_hours: { unit: 'hours', min: 1, max: 8_760 },
  every_x_days: { unit: 'days', min: 1, max: 365 },
};

export function isElapsedFrequency(frequency: string): frequency is ElapsedFrequency {
  return (ELAPSED_FREQUENCIES as readonly string[]).includes(frequency);
}
