import { describe, expect, it } from 'vitest';
import { OVERDUE_MARGIN_MS, autoUpdateCadence, refreshOverdue, scheduleCadence, type OverdueInput } from './cadence.js';

const HOUR = 3_600;
const DAY = 86_400;

describe('scheduleCadence: how often a dashboard schedule refreshes, and its longest wait', () => {
  it('elapsed-time frequencies: n units', () => {
    expect(scheduleCadence({ frequency: 'every_x_minutes', frequencyNumber: '15' })).toEqual({ everySeconds: 900, longestGapSeconds: 900 });
    expect(scheduleCadence({ frequency: 'every_x_hours', frequencyNumber: 6 })).toEqual({ everySeconds: 6 * HOUR, longestGapSeconds: 6 * HOUR });
    expect(scheduleCadence({ frequency: 'every_x_days', frequencyNumber: '2' })).toEqual({ everySeconds: 2 * DAY, longestGapSeconds: 2 * DAY });
  });

  it('daily: every day, or its days of the week with the longest gap between them', () => {
    expect(scheduleCadence({ frequency: 'daily', time: { hour: 9 } })).toEqual({ everySeconds: DAY, longestGapSeconds: DAY });
    // Monday to Friday: every day it may, but Friday to Monday is 3 days.
    expect(scheduleCadence({ frequency: 'daily', daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] })).toEqual({ everySeconds: DAY, longestGapSeconds: 3 * DAY });
    expect(scheduleCadence({ frequency: 'daily', daysOfWeek: [1, 4] })).toEqual({ everySeconds: 3 * DAY, longestGapSeconds: 4 * DAY });
    expect(scheduleCadence({ frequency: 'daily', daysOfWeek: ['sunday'] })).toEqual({ everySeconds: 7 * DAY, longestGapSeconds: 7 * DAY });
  });

  it('weekly: seven days', () => {
    expect(scheduleCadence({ frequency: 'weekly', dayOfWeek: 'monday', time: { hour: 8 } })).toEqual({ everySeconds: 7 * DAY, longestGapSeconds: 7 * DAY });
  });

  it('a schedule that never runs has no cadence', () => {
    for (const schedule of [null, undefined, 'daily', {}, { frequency: 'hourly' }, { frequency: 'every_x_hours', frequencyNumber: 'x' }, { frequency: 'every_x_hours', frequencyNumber: 0 }, { frequency: 'daily', daysOfWeek: [] }, { frequency: 'weekly' }]) {
      expect(scheduleCadence(schedule), JSON.stringify(schedule)).toBeNull();
    }
  });

  it("a chart's autoUpdate: its seconds; 0 or null is off", () => {
    expect(autoUpdateCadence(3_600)).toEqual({ everySeconds: 3_600, longestGapSeconds: 3_600 });
    expect(autoUpdateCadence(0)).toBeNull();
    expect(autoUpdateCadence(null)).toBeNull();
  });
});

describe('refreshOverdue: data clearly older than its schedule allows', () => {
  const data = '2026-03-02T10:00:00.000Z';
  const at = (ms: number) => new Date(Date.parse(data) + ms);
  const hourly: OverdueInput = { type: 'bar', chartDataUpdated: data, autoUpdate: null, updateSchedule: { frequency: 'every_x_hours', frequencyNumber: '1' }, dashboardUpdatedAt: '2026-01-01T00:00:00.000Z' };
  const limit = 2 * HOUR * 1000 + OVERDUE_MARGIN_MS;

  it('not while a refresh is due, nor until twice the period and the margin have passed', () => {
    expect(refreshOverdue(hourly, at(HOUR * 1000))).toBeNull();
    expect(refreshOverdue(hourly, at(HOUR * 1000 + 5 * 60_000))).toBeNull();
    expect(refreshOverdue(hourly, at(limit))).toBeNull();
    expect(refreshOverdue(hourly, at(limit + 1000))).toEqual({ since: data, everySeconds: HOUR });
  });

  it("a chart's own autoUpdate counts like a dashboard schedule", () => {
    const chart: OverdueInput = { type: 'line', chartDataUpdated: data, autoUpdate: 600, updateSchedule: null };
    expect(refreshOverdue(chart, at(2 * 600_000 + OVERDUE_MARGIN_MS))).toBeNull();
    expect(refreshOverdue(chart, at(2 * 600_000 + OVERDUE_MARGIN_MS + 1))).toEqual({ since: data, everySeconds: 600 });
  });

  it('names the shortest schedule the chart missed: an hourly autoUpdate on a daily dashboard', () => {
    const both: OverdueInput = { ...hourly, autoUpdate: HOUR, updateSchedule: { frequency: 'daily', time: { hour: 6 } } };
    expect(refreshOverdue(both, at(3 * HOUR * 1000))).toEqual({ since: data, everySeconds: HOUR });
    expect(refreshOverdue(both, at(3 * DAY * 1000))).toEqual({ since: data, everySeconds: HOUR });
    // The daily schedule alone: two days and a margin.
    const daily = { ...both, autoUpdate: null };
    expect(refreshOverdue(daily, at(2 * DAY * 1000))).toBeNull();
    expect(refreshOverdue(daily, at(2 * DAY * 1000 + OVERDUE_MARGIN_MS + 1))).toEqual({ since: data, everySeconds: DAY });
  });

  it('a weekdays-only schedule waits for its longest gap: a Friday refresh is not overdue on Monday', () => {
    const weekdays: OverdueInput = { ...hourly, updateSchedule: { frequency: 'daily', daysOfWeek: [1, 2, 3, 4, 5], time: { hour: 9 } } };
    // Data of Friday 2026-03-06 09:00; Monday 09:05 (a refresh due) and the Tuesday after are fine.
    const friday = { ...weekdays, chartDataUpdated: '2026-03-06T09:00:00.000Z' };
    expect(refreshOverdue(friday, new Date('2026-03-09T09:05:00Z'))).toBeNull();
    expect(refreshOverdue(friday, new Date('2026-03-11T09:00:00Z'))).toBeNull();
    expect(refreshOverdue(friday, new Date('2026-03-12T09:16:00Z'))).toEqual({ since: '2026-03-06T09:00:00.000Z', everySeconds: DAY });
  });

  it('counts from the last save of the chart or dashboard when later: a schedule set over old data has its chance first', () => {
    const justSet = { ...hourly, dashboardUpdatedAt: new Date(at(10 * DAY * 1000).getTime() - 60_000).toISOString() };
    expect(refreshOverdue(justSet, at(10 * DAY * 1000))).toBeNull();
    expect(refreshOverdue(justSet, at(10 * DAY * 1000 + limit))).toEqual({ since: data, everySeconds: HOUR });
    // The chart's own save counts for its own autoUpdate only.
    const chart: OverdueInput = { type: 'kpi', chartDataUpdated: data, autoUpdate: HOUR, chartUpdatedAt: at(10 * DAY * 1000 - 60_000).toISOString(), updateSchedule: null, dashboardUpdatedAt: at(10 * DAY * 1000 - 60_000).toISOString() };
    expect(refreshOverdue(chart, at(10 * DAY * 1000))).toBeNull();
  });

  it('never without a schedule, without data, or for markdown', () => {
    const old = at(365 * DAY * 1000);
    expect(refreshOverdue({ ...hourly, updateSchedule: null }, old)).toBeNull();
    expect(refreshOverdue({ ...hourly, updateSchedule: { frequency: 'daily', daysOfWeek: [] } }, old)).toBeNull();
    expect(refreshOverdue({ ...hourly, autoUpdate: 0, updateSchedule: undefined }, old)).toBeNull();
    expect(refreshOverdue({ ...hourly, chartDataUpdated: null }, old)).toBeNull();
    expect(refreshOverdue({ ...hourly, chartDataUpdated: 'not a time' }, old)).toBeNull();
    expect(refreshOverdue({ ...hourly, type: 'markdown' }, old)).toBeNull();
  });
});
