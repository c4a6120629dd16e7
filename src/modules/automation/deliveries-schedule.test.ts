import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/index.js';
import { deliveryDue, parseSchedule, type DeliverySchedule, type DeliveryScheduleInput } from './deliveries-schedule.js';

/** The 400 `parseSchedule` throws, as its message. */
function refusal(input: DeliveryScheduleInput): string {
  try {
    parseSchedule(input, 'body.schedule');
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(input)}`);
}

describe('parseSchedule: elapsed-time frequencies', () => {
  it('stores every_x_* with a number, without time or days (sent ones are ignored)', () => {
    expect(parseSchedule({ frequency: 'every_x_hours', frequencyNumber: 6 }, 'body.schedule')).toEqual({ frequency: 'every_x_hours', frequencyNumber: 6, timezone: 'UTC' });
    expect(
      parseSchedule({ frequency: 'every_x_days', frequencyNumber: 2, time: { hour: 7, minute: 15 }, dayOfWeek: 'monday', dayOfMonth: 3, daysOfWeek: [1], timezone: 'Europe/Paris' }, 'body.schedule'),
    ).toEqual({ frequency: 'every_x_days', frequencyNumber: 2, timezone: 'Europe/Paris' });
    // A time sent along is not even validated: it is not used.
    expect(parseSchedule({ frequency: 'every_x_minutes', frequencyNumber: 30, time: { hour: 99 } }, 'body.schedule')).toEqual({ frequency: 'every_x_minutes', frequencyNumber: 30, timezone: 'UTC' });
  });

  it('takes the number as digits too (Chartbrew sends strings), and stores a number', () => {
    expect(parseSchedule({ frequency: 'every_x_hours', frequencyNumber: '12' }, 'body.schedule')).toMatchObject({ frequencyNumber: 12 });
    expect(parseSchedule({ frequency: 'every_x_minutes', frequencyNumber: ' 15 ' }, 'body.schedule')).toMatchObject({ frequencyNumber: 15 });
  });

  it('keeps each unit within its bounds', () => {
    for (const [frequency, min, max] of [
      ['every_x_days', 1, 365],
      ['every_x_hours', 1, 8760],
      ['every_x_minutes', 15, 1440],
    ] as const) {
      expect(parseSchedule({ frequency, frequencyNumber: min }, 'p')).toMatchObject({ frequencyNumber: min });
      expect(parseSchedule({ frequency, frequencyNumber: max }, 'p')).toMatchObject({ frequencyNumber: max });
      expect(refusal({ frequency, frequencyNumber: max + 1 })).toMatch(new RegExp(`^body\\.schedule\\.frequencyNumber.*from ${min} to ${max}`));
    }
  });

  it('refuses a delivery more often than every 15 minutes, naming the field and the floor', () => {
    expect(refusal({ frequency: 'every_x_minutes', frequencyNumber: 14 })).toMatch(/^body\.schedule\.frequencyNumber.*at least 15: a delivery is sent at most every 15 minutes/);
    expect(refusal({ frequency: 'every_x_minutes', frequencyNumber: '5' })).toMatch(/frequencyNumber.*at least 15/);
    expect(refusal({ frequency: 'every_x_minutes', frequencyNumber: 0 })).toMatch(/frequencyNumber.*from 15 to 1440/);
  });

  it('refuses a missing, fractional, negative or wordy number, naming the field', () => {
    expect(refusal({ frequency: 'every_x_hours' })).toMatch(/^body\.schedule\.frequencyNumber.*required for every_x_hours/);
    expect(refusal({ frequency: 'every_x_hours', frequencyNumber: '' })).toMatch(/frequencyNumber.*required/);
    for (const bad of [1.5, -2, '2.5', 'six', '-1']) expect(refusal({ frequency: 'every_x_days', frequencyNumber: bad })).toMatch(/^body\.schedule\.frequencyNumber.*whole number of days/);
  });

  it('still checks the zone, and names the new frequencies when the frequency is unknown', () => {
    expect(refusal({ frequency: 'every_x_hours', frequencyNumber: 1, timezone: 'Mars/Olympus' })).toMatch(/^body\.schedule\.timezone/);
    expect(refusal({ frequency: 'hourly' })).toMatch(/frequency.*daily, weekdays, weekly, monthly, every_x_days, every_x_hours, every_x_minutes/);
  });
});

describe('deliveryDue: elapsed time, the refresh scheduler rule', () => {
  const created = '2026-03-02T08:00:00.000Z';
  const every6h: DeliverySchedule = { frequency: 'every_x_hours', frequencyNumber: 6, timezone: 'America/New_York' };
  const at = (iso: string, lastSentAt: string | null = null) => deliveryDue(every6h, { lastSentAt, createdAt: created, now: new Date(iso) });

  it('a new subscription waits one interval from its creation', () => {
    expect(at('2026-03-02T08:00:00Z')).toEqual({ due: false, period: null, nextAt: '2026-03-02T14:00:00.000Z' });
    expect(at('2026-03-02T13:59:00Z').due).toBe(false);
    expect(at('2026-03-02T14:00:00Z')).toEqual({ due: true, period: `after:${created}`, nextAt: '2026-03-02T14:00:00.000Z' });
  });

  it('then once per interval after the last delivery; missed intervals are one catch-up', () => {
    const sent = '2026-03-02T14:00:30.000Z';
    expect(at('2026-03-02T14:01:00Z', sent)).toEqual({ due: false, period: null, nextAt: '2026-03-02T20:00:30.000Z' });
    expect(at('2026-03-02T20:00:30Z', sent)).toMatchObject({ due: true, period: `after:${sent}` });
    // Three days without a tick: one delivery, named by the one before it.
    expect(at('2026-03-05T20:00:00Z', sent)).toMatchObject({ due: true, period: `after:${sent}` });
  });

  it('counts elapsed hours across daylight saving (New York springs forward on 8 March 2026)', () => {
    const sent = '2026-03-08T05:00:00.000Z'; // 00:00 EST
    expect(at('2026-03-08T10:59:00Z', sent).due).toBe(false);
    expect(at('2026-03-08T11:00:00Z', sent).due).toBe(true); // 07:00 EDT: six hours later, not six on the wall clock
  });

  it('minutes and days the same way', () => {
    const quarter: DeliverySchedule = { frequency: 'every_x_minutes', frequencyNumber: 15, timezone: 'UTC' };
    expect(deliveryDue(quarter, { lastSentAt: null, createdAt: created, now: new Date('2026-03-02T08:14:00Z') }).due).toBe(false);
    expect(deliveryDue(quarter, { lastSentAt: null, createdAt: created, now: new Date('2026-03-02T08:15:00Z') }).due).toBe(true);
    const twoDays: DeliverySchedule = { frequency: 'every_x_days', frequencyNumber: 2, timezone: 'UTC' };
    expect(deliveryDue(twoDays, { lastSentAt: null, createdAt: created, now: new Date('2026-03-03T08:00:00Z') }).nextAt).toBe('2026-03-04T08:00:00.000Z');
  });
});
