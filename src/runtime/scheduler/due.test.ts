import { describe, expect, it } from 'vitest';
import { chartDue, dashboardDue, scheduleZone, weekdayNumber, type ScheduleSpec } from './due.js';

/** Due-ness on a fixed clock: every case names the instant (UTC) it is evaluated at. */
interface Case {
  name: string;
  schedule: ScheduleSpec;
  zone?: string;
  last: string | null;
  now: string;
  due: boolean;
  nextAt?: string | null;
  period?: string;
}

function check(c: Case) {
  return dashboardDue(c.schedule, { timezone: c.zone ?? 'UTC', lastUpdatedAt: c.last, now: new Date(c.now) });
}

const cases: Case[] = [
  // every_x_minutes: elapsed time.
  { name: 'minutes: never run is due at once', schedule: { frequency: 'every_x_minutes', frequencyNumber: '5' }, last: null, now: '2026-01-10T10:00:00Z', due: true, period: 'first' },
  { name: 'minutes: 4 of 5 elapsed', schedule: { frequency: 'every_x_minutes', frequencyNumber: '5' }, last: '2026-01-10T10:00:00.000Z', now: '2026-01-10T10:04:00Z', due: false, nextAt: '2026-01-10T10:05:00.000Z' },
  { name: 'minutes: 5 of 5 elapsed', schedule: { frequency: 'every_x_minutes', frequencyNumber: '5' }, last: '2026-01-10T10:00:00.000Z', now: '2026-01-10T10:05:00Z', due: true, period: 'after:2026-01-10T10:00:00.000Z' },
  { name: 'minutes: a tick 1 s early still counts (timer slack)', schedule: { frequency: 'every_x_minutes', frequencyNumber: 1 }, last: '2026-01-10T10:00:00.000Z', now: '2026-01-10T10:00:59Z', due: true },
  { name: 'minutes: 30 s early is not due', schedule: { frequency: 'every_x_minutes', frequencyNumber: 1 }, last: '2026-01-10T10:00:00.000Z', now: '2026-01-10T10:00:30Z', due: false },
  { name: 'minutes: missed periods collapse into one catch-up', schedule: { frequency: 'every_x_minutes', frequencyNumber: '1' }, last: '2026-01-10T10:00:00.000Z', now: '2026-01-10T13:17:00Z', due: true, period: 'after:2026-01-10T10:00:00.000Z', nextAt: '2026-01-10T13:17:00.000Z' },
  { name: 'minutes: a bad frequencyNumber never runs', schedule: { frequency: 'every_x_minutes', frequencyNumber: 'x' }, last: null, now: '2026-01-10T10:00:00Z', due: false, nextAt: null },
  // every_x_hours across DST: elapsed hours, the repeated or skipped hour is not special.
  { name: 'hours: NY fall-back, 1 h elapsed inside the repeated hour', zone: 'America/New_York', schedule: { frequency: 'every_x_hours', frequencyNumber: '1' }, last: '2026-11-01T05:00:00.000Z', now: '2026-11-01T06:00:00Z', due: true },
  { name: 'hours: NY fall-back, 59 min elapsed', zone: 'America/New_York', schedule: { frequency: 'every_x_hours', frequencyNumber: '1' }, last: '2026-11-01T05:30:00.000Z', now: '2026-11-01T06:29:00Z', due: false, nextAt: '2026-11-01T06:30:00.000Z' },
  { name: 'hours: Berlin spring-forward, 2 h elapsed over the gap', zone: 'Europe/Berlin', schedule: { frequency: 'every_x_hours', frequencyNumber: '2' }, last: '2026-03-29T00:00:00.000Z', now: '2026-03-29T02:00:00Z', due: true },
  { name: 'hours: Berlin spring-forward, wall clock moved 2 h but only 1 h elapsed', zone: 'Europe/Berlin', schedule: { frequency: 'every_x_hours', frequencyNumber: '2' }, last: '2026-03-29T00:30:00.000Z', now: '2026-03-29T01:30:00Z', due: false },
  // every_x_days: elapsed days.
  { name: 'days: 2 days elapsed', schedule: { frequency: 'every_x_days', frequencyNumber: '2' }, last: '2026-01-10T08:00:00.000Z', now: '2026-01-12T08:00:00Z', due: true },
  { name: 'days: 1.9 days elapsed', schedule: { frequency: 'every_x_days', frequencyNumber: '2' }, last: '2026-01-10T08:00:00.000Z', now: '2026-01-12T05:00:00Z', due: false, nextAt: '2026-01-12T08:00:00.000Z' },
  // daily, UTC.
  { name: 'daily: never run and today allowed: due at once', schedule: { frequency: 'daily', time: { hour: 9, minute: 0 } }, last: null, now: '2026-01-12T03:00:00Z', due: true },
  { name: 'daily: never run, today (Monday) not allowed', schedule: { frequency: 'daily', time: { hour: 9 }, daysOfWeek: ['tuesday'] }, last: null, now: '2026-01-12T10:00:00Z', due: false, nextAt: '2026-01-13T09:00:00.000Z' },
  { name: 'daily: before today\'s time, yesterday done', schedule: { frequency: 'daily', time: { hour: 9, minute: 30 } }, last: '2026-01-11T09:30:05.000Z', now: '2026-01-12T09:29:00Z', due: false, nextAt: '2026-01-12T09:30:00.000Z' },
  { name: 'daily: at today\'s time', schedule: { frequency: 'daily', time: { hour: 9, minute: 30 } }, last: '2026-01-11T09:30:05.000Z', now: '2026-01-12T09:30:00Z', due: true, period: 'slot:2026-01-12T09:30:00.000Z' },
  { name: 'daily: already ran today', schedule: { frequency: 'daily', time: { hour: 9, minute: 30 } }, last: '2026-01-12T09:30:01.000Z', now: '2026-01-12T15:00:00Z', due: false, nextAt: '2026-01-13T09:30:00.000Z' },
  { name: 'daily: three missed days collapse into one run', schedule: { frequency: 'daily', time: { hour: 9 } }, last: '2026-01-08T09:00:00.000Z', now: '2026-01-12T11:00:00Z', due: true, period: 'slot:2026-01-12T09:00:00.000Z' },
  { name: 'daily: yesterday\'s slot missed, caught up before today\'s', schedule: { frequency: 'daily', time: { hour: 9 } }, last: '2026-01-10T09:00:00.000Z', now: '2026-01-12T08:00:00Z', due: true, period: 'slot:2026-01-11T09:00:00.000Z' },
  { name: 'daily: empty daysOfWeek never runs', schedule: { frequency: 'daily', daysOfWeek: [] }, last: null, now: '2026-01-12T10:00:00Z', due: false, nextAt: null },
  // daysOfWeek by name and by number (Monday = 1): 2026-01-12 is a Monday, 2026-01-17 a Saturday.
  { name: 'daysOfWeek numbers: Saturday (6) allowed', schedule: { frequency: 'daily', time: { hour: 9 }, daysOfWeek: [6, 7] }, last: '2026-01-16T09:00:00.000Z', now: '2026-01-17T09:00:00Z', due: true },
  { name: 'daysOfWeek numbers: weekdays only skip Saturday', schedule: { frequency: 'daily', time: { hour: 9 }, daysOfWeek: [1, 2, 3, 4, 5] }, last: '2026-01-16T09:00:00.000Z', now: '2026-01-17T09:00:00Z', due: false, nextAt: '2026-01-19T09:00:00.000Z' },
  { name: 'daysOfWeek names: weekdays only skip Saturday', schedule: { frequency: 'daily', time: { hour: 9 }, daysOfWeek: ['monday', 'Tuesday', 'wednesday', 'thursday', 'friday'] }, last: '2026-01-16T09:00:00.000Z', now: '2026-01-17T09:00:00Z', due: false, nextAt: '2026-01-19T09:00:00.000Z' },
  { name: 'daysOfWeek names: sunday allowed', schedule: { frequency: 'daily', time: { hour: 9 }, daysOfWeek: ['sunday'] }, last: '2026-01-11T09:00:00.000Z', now: '2026-01-18T09:00:00Z', due: true },
  // daily across DST in the project zone.
  { name: 'daily Berlin: 09:00 local is 08:00Z in winter', zone: 'Europe/Berlin', schedule: { frequency: 'daily', time: { hour: 9 } }, last: '2026-01-11T08:00:00.000Z', now: '2026-01-12T08:00:00Z', due: true },
  { name: 'daily Berlin: 09:00 local is 07:00Z after spring-forward', zone: 'Europe/Berlin', schedule: { frequency: 'daily', time: { hour: 9 } }, last: '2026-03-28T08:00:00.000Z', now: '2026-03-29T07:00:00Z', due: true, period: 'slot:2026-03-29T07:00:00.000Z' },
  { name: 'daily Berlin: 02:30 in the spring-forward gap runs at 03:30 CEST', zone: 'Europe/Berlin', schedule: { frequency: 'daily', time: { hour: 2, minute: 30 } }, last: '2026-03-28T01:30:00.000Z', now: '2026-03-29T01:29:00Z', due: false, nextAt: '2026-03-29T01:30:00.000Z' },
  { name: 'daily Berlin: 02:30 in the gap is due at 01:30Z', zone: 'Europe/Berlin', schedule: { frequency: 'daily', time: { hour: 2, minute: 30 } }, last: '2026-03-28T01:30:00.000Z', now: '2026-03-29T01:30:00Z', due: true },
  { name: 'daily Berlin: fall-back 02:30 (twice) first occurrence is not the slot', zone: 'Europe/Berlin', schedule: { frequency: 'daily', time: { hour: 2, minute: 30 } }, last: '2026-10-24T00:30:00.000Z', now: '2026-10-25T00:30:00Z', due: false, nextAt: '2026-10-25T01:30:00.000Z' },
  { name: 'daily Berlin: fall-back 02:30 runs at its second occurrence', zone: 'Europe/Berlin', schedule: { frequency: 'daily', time: { hour: 2, minute: 30 } }, last: '2026-10-24T00:30:00.000Z', now: '2026-10-25T01:30:00Z', due: true },
  { name: 'daily Berlin: fall-back day, once only', zone: 'Europe/Berlin', schedule: { frequency: 'daily', time: { hour: 2, minute: 30 } }, last: '2026-10-25T01:30:00.000Z', now: '2026-10-25T02:30:00Z', due: false, nextAt: '2026-10-26T01:30:00.000Z' },
  { name: 'daily NY: 02:30 in the spring-forward gap runs at 03:30 EDT', zone: 'America/New_York', schedule: { frequency: 'daily', time: { hour: 2, minute: 30 } }, last: '2026-03-07T07:30:00.000Z', now: '2026-03-08T07:30:00Z', due: true, period: 'slot:2026-03-08T07:30:00.000Z' },
  { name: 'daily NY: spring-forward day, not at 06:30Z (would be 02:30 EST)', zone: 'America/New_York', schedule: { frequency: 'daily', time: { hour: 2, minute: 30 } }, last: '2026-03-07T07:30:00.000Z', now: '2026-03-08T06:30:00Z', due: false },
  { name: 'daily NY: fall-back 01:30 runs once (EST occurrence)', zone: 'America/New_York', schedule: { frequency: 'daily', time: { hour: 1, minute: 30 } }, last: '2026-10-31T05:30:00.000Z', now: '2026-11-01T06:30:00Z', due: true },
  { name: 'daily NY: fall-back, after the run the next is tomorrow', zone: 'America/New_York', schedule: { frequency: 'daily', time: { hour: 1, minute: 30 } }, last: '2026-11-01T06:30:00.000Z', now: '2026-11-01T07:30:00Z', due: false, nextAt: '2026-11-02T06:30:00.000Z' },
  { name: 'daily NY: 23-hour day still runs (09:00 EDT = 13:00Z)', zone: 'America/New_York', schedule: { frequency: 'daily', time: { hour: 9 } }, last: '2026-03-07T14:00:00.000Z', now: '2026-03-08T13:00:00Z', due: true },
  { name: 'daily NY: 25-hour day runs once (09:00 EST = 14:00Z)', zone: 'America/New_York', schedule: { frequency: 'daily', time: { hour: 9 } }, last: '2026-10-31T13:00:00.000Z', now: '2026-11-01T13:30:00Z', due: false, nextAt: '2026-11-01T14:00:00.000Z' },
  // weekly.
  { name: 'weekly: never run is due at once', schedule: { frequency: 'weekly', dayOfWeek: 'monday', time: { hour: 8 } }, last: null, now: '2026-01-14T00:00:00Z', due: true },
  { name: 'weekly: no dayOfWeek never runs', schedule: { frequency: 'weekly', time: { hour: 8 } }, last: null, now: '2026-01-14T00:00:00Z', due: false, nextAt: null },
  { name: 'weekly: Monday 08:00 by name, on Monday 08:00', schedule: { frequency: 'weekly', dayOfWeek: 'monday', time: { hour: 8 } }, last: '2026-01-05T08:00:00.000Z', now: '2026-01-12T08:00:00Z', due: true },
  { name: 'weekly: Monday (1) by number, on Sunday', schedule: { frequency: 'weekly', dayOfWeek: 1, time: { hour: 8 } }, last: '2026-01-05T08:00:00.000Z', now: '2026-01-11T23:00:00Z', due: false, nextAt: '2026-01-12T08:00:00.000Z' },
  { name: 'weekly: missed three weeks, one catch-up', schedule: { frequency: 'weekly', dayOfWeek: 3, time: { hour: 8 } }, last: '2025-12-17T08:00:00.000Z', now: '2026-01-12T08:00:00Z', due: true, period: 'slot:2026-01-07T08:00:00.000Z' },
  { name: 'weekly NY across fall-back: Sunday 09:00 EST', zone: 'America/New_York', schedule: { frequency: 'weekly', dayOfWeek: 'sunday', time: { hour: 9 } }, last: '2026-10-25T13:00:00.000Z', now: '2026-11-01T14:00:00Z', due: true },
  // unknown frequency / no schedule.
  { name: 'no frequency is no schedule', schedule: {}, last: null, now: '2026-01-12T10:00:00Z', due: false, nextAt: null },
  { name: 'unknown frequency is no schedule', schedule: { frequency: 'hourly' }, last: null, now: '2026-01-12T10:00:00Z', due: false },
];

describe('dashboard due-ness on a fixed clock', () => {
  it.each(cases)('$name', (c) => {
    const answer = check(c);
    expect(answer.due).toBe(c.due);
    if (c.nextAt !== undefined) expect(answer.nextAt).toBe(c.nextAt);
    if (c.period !== undefined) expect(answer.period).toBe(c.period);
    if (c.due) expect(answer.nextAt).toBe(new Date(c.now).toISOString());
    if (!c.due) expect(answer.period).toBeNull();
  });

  it('two processes reading the same state derive the same period', () => {
    const schedule = { frequency: 'every_x_minutes', frequencyNumber: '1' };
    const a = dashboardDue(schedule, { timezone: 'UTC', lastUpdatedAt: '2026-01-10T10:00:00.000Z', now: new Date('2026-01-10T10:01:00.100Z') });
    const b = dashboardDue(schedule, { timezone: 'UTC', lastUpdatedAt: '2026-01-10T10:00:00.000Z', now: new Date('2026-01-10T10:01:40.900Z') });
    expect(a.period).toBe(b.period);
    const daily = { frequency: 'daily', time: { hour: 9 } };
    const c = dashboardDue(daily, { timezone: 'Europe/Berlin', lastUpdatedAt: null, now: new Date('2026-01-12T08:00:00Z') });
    expect(c.period).toBe('first');
  });

  it('a day of one-minute ticks in New York over the fall-back runs a daily schedule once and an hourly one every 60 elapsed minutes', () => {
    let lastDaily: string | null = '2026-10-31T06:30:00.000Z';
    let lastHourly: string | null = '2026-11-01T04:00:00.000Z';
    let daily = 0;
    let hourly = 0;
    const gaps = new Set<number>();
    for (let t = Date.parse('2026-11-01T04:00:30Z'); t < Date.parse('2026-11-02T05:00:00Z'); t += 60_000) {
      const now = new Date(t);
      if (dashboardDue({ frequency: 'daily', time: { hour: 1, minute: 30 } }, { timezone: 'America/New_York', lastUpdatedAt: lastDaily, now }).due) {
        daily += 1;
        lastDaily = now.toISOString();
      }
      if (dashboardDue({ frequency: 'every_x_hours', frequencyNumber: '1' }, { timezone: 'America/New_York', lastUpdatedAt: lastHourly, now }).due) {
        gaps.add(t - Date.parse(lastHourly!));
        hourly += 1;
        lastHourly = now.toISOString();
      }
    }
    expect(daily).toBe(1);
    // Every gap is one elapsed hour, the repeated local hour included (a tz cron would skip it):
    // 05:00:30Z Nov 1 to 04:00:30Z Nov 2 is 24 runs.
    expect([...gaps]).toEqual([3_600_000 + 30_000, 3_600_000].slice(0, gaps.size));
    expect(hourly).toBe(24);
  });
});

describe('weekdays and zones', () => {
  it('weekday names and numbers', () => {
    expect(weekdayNumber('monday')).toBe(1);
    expect(weekdayNumber('Sunday')).toBe(7);
    expect(weekdayNumber(3)).toBe(3);
    expect(weekdayNumber('5')).toBe(5);
    expect(weekdayNumber(0)).toBeUndefined();
    expect(weekdayNumber('funday')).toBeUndefined();
  });

  it('the project zone wins over the schedule zone, UTC is the fallback', () => {
    expect(scheduleZone('Europe/Berlin', { timezone: 'America/New_York' })).toBe('Europe/Berlin');
    expect(scheduleZone(null, { timezone: 'America/New_York' })).toBe('America/New_York');
    expect(scheduleZone(null, {})).toBe('UTC');
    expect(scheduleZone('Not/AZone', null)).toBe('UTC');
  });
});

describe('chart autoUpdate due-ness', () => {
  const now = new Date('2026-01-12T10:00:00Z');
  it.each([
    { name: 'never ran', chart: { type: 'line', autoUpdate: 60, lastAutoUpdate: null }, due: true },
    { name: '60 s elapsed of 60', chart: { type: 'line', autoUpdate: 60, lastAutoUpdate: '2026-01-12T09:59:00.000Z' }, due: true },
    { name: '30 s elapsed of 60', chart: { type: 'line', autoUpdate: 60, lastAutoUpdate: '2026-01-12T09:59:30.000Z' }, due: false },
    { name: 'missed an hour of 60 s periods: one run', chart: { type: 'bar', autoUpdate: 60, lastAutoUpdate: '2026-01-12T09:00:00.000Z' }, due: true },
    { name: 'markdown never refreshes', chart: { type: 'markdown', autoUpdate: 60, lastAutoUpdate: null }, due: false },
    { name: 'autoUpdate 0 is off', chart: { type: 'line', autoUpdate: 0, lastAutoUpdate: null }, due: false },
    { name: 'autoUpdate null is off', chart: { type: 'line', autoUpdate: null, lastAutoUpdate: null }, due: false },
  ])('$name', ({ chart, due }) => {
    expect(chartDue(chart, now).due).toBe(due);
  });
  it('next time is the last run plus autoUpdate', () => {
    expect(chartDue({ type: 'line', autoUpdate: 300, lastAutoUpdate: '2026-01-12T09:58:00.000Z' }, now).nextAt).toBe('2026-01-12T10:03:00.000Z');
  });
});
