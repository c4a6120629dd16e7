import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { toEpochMs } from './date-value.js';
import { daysFromCivil, isoWeekOfDay } from './calendar.js';
import { createBucketer, enumerateBuckets } from './time-buckets.js';
import type { TimeInterval } from './types.js';
import { ZoneClock } from './zone-clock.js';

function labelOf(interval: TimeInterval, zone: string, instant: number): string {
  const b = createBucketer(interval, ZoneClock.of(zone));
  return b.label(b.bucket(instant));
}

function labelsBetween(interval: TimeInterval, zone: string, from: number, to: number): string[] {
  const b = createBucketer(interval, ZoneClock.of(zone));
  return enumerateBuckets(b, b.bucket(from), b.bucket(to), 1000)!.map((k) => b.label(k));
}

const U = Date.UTC;

describe('day buckets across DST (Europe/Paris)', () => {
  it('spring forward, 2025-03-30 (a 23-hour day)', () => {
    // CET (+1) until 01:00Z, CEST (+2) after.
    expect(labelOf('day', 'Europe/Paris', U(2025, 2, 29, 22, 59))).toBe('2025-03-29'); // 23:59 CET
    expect(labelOf('day', 'Europe/Paris', U(2025, 2, 29, 23, 30))).toBe('2025-03-30'); // 00:30 CET
    expect(labelOf('day', 'Europe/Paris', U(2025, 2, 30, 21, 59))).toBe('2025-03-30'); // 23:59 CEST
    expect(labelOf('day', 'Europe/Paris', U(2025, 2, 30, 22, 0))).toBe('2025-03-31'); // 00:00 CEST
  });

  it('fall back, 2025-10-26 (a 25-hour day)', () => {
    expect(labelOf('day', 'Europe/Paris', U(2025, 9, 25, 21, 59, 59))).toBe('2025-10-25'); // 23:59:59 CEST
    expect(labelOf('day', 'Europe/Paris', U(2025, 9, 25, 22, 0))).toBe('2025-10-26'); // 00:00 CEST
    expect(labelOf('day', 'Europe/Paris', U(2025, 9, 26, 22, 59))).toBe('2025-10-26'); // 23:59 CET
    expect(labelOf('day', 'Europe/Paris', U(2025, 9, 26, 23, 0))).toBe('2025-10-27'); // 00:00 CET
  });

  it('enumerates each local day once around both changes', () => {
    expect(labelsBetween('day', 'Europe/Paris', U(2025, 2, 28, 12), U(2025, 3, 1, 12))).toEqual([
      '2025-03-28',
      '2025-03-29',
      '2025-03-30',
      '2025-03-31',
      '2025-04-01',
    ]);
    expect(labelsBetween('day', 'Europe/Paris', U(2025, 9, 25, 12), U(2025, 9, 27, 12))).toEqual(['2025-10-25', '2025-10-26', '2025-10-27']);
  });
});

describe('hour buckets across DST (Europe/Paris)', () => {
  it('never shows the skipped hour 02:00 on 2025-03-30', () => {
    expect(labelOf('hour', 'Europe/Paris', U(2025, 2, 30, 0, 30))).toBe('2025-03-30 01:00'); // 01:30 CET
    expect(labelOf('hour', 'Europe/Paris', U(2025, 2, 30, 1, 30))).toBe('2025-03-30 03:00'); // 03:30 CEST
    expect(labelsBetween('hour', 'Europe/Paris', U(2025, 2, 30, 0), U(2025, 2, 30, 2))).toEqual([
      '2025-03-30 01:00',
      '2025-03-30 03:00',
      '2025-03-30 04:00',
    ]);
  });

  it('keeps the repeated hour 02:00 on 2025-10-26 twice, labelled with its offset', () => {
    expect(labelsBetween('hour', 'Europe/Paris', U(2025, 9, 25, 23, 30), U(2025, 9, 26, 2, 30))).toEqual([
      '2025-10-26 01:00',
      '2025-10-26 02:00 +02:00',
      '2025-10-26 02:00 +01:00',
      '2025-10-26 03:00',
    ]);
    const b = createBucketer('hour', ZoneClock.of('Europe/Paris'));
    // 02:30 CEST (00:30Z) and 02:30 CET (01:30Z) fall in different buckets.
    expect(b.bucket(U(2025, 9, 26, 0, 30))).toBe(U(2025, 9, 26, 0));
    expect(b.bucket(U(2025, 9, 26, 1, 30))).toBe(U(2025, 9, 26, 1));
  });
});

describe('America/New_York', () => {
  it('days around 2025-03-09 (clocks go forward at 07:00Z)', () => {
    expect(labelOf('day', 'America/New_York', U(2025, 2, 9, 4, 59))).toBe('2025-03-08'); // 23:59 EST
    expect(labelOf('day', 'America/New_York', U(2025, 2, 9, 5, 0))).toBe('2025-03-09'); // 00:00 EST
    expect(labelOf('day', 'America/New_York', U(2025, 2, 10, 3, 59))).toBe('2025-03-09'); // 23:59 EDT
    expect(labelOf('day', 'America/New_York', U(2025, 2, 10, 4, 0))).toBe('2025-03-10'); // 00:00 EDT
  });

  it('months around 2025-11-01 and hours around 2025-11-02 (clocks go back at 06:00Z)', () => {
    expect(labelOf('month', 'America/New_York', U(2025, 10, 1, 3, 59))).toBe('2025-10'); // Oct 31 23:59 EDT
    expect(labelOf('month', 'America/New_York', U(2025, 10, 1, 4, 0))).toBe('2025-11');
    expect(labelsBetween('hour', 'America/New_York', U(2025, 10, 2, 4, 30), U(2025, 10, 2, 7, 30))).toEqual([
      '2025-11-02 00:00',
      '2025-11-02 01:00 -04:00',
      '2025-11-02 01:00 -05:00',
      '2025-11-02 02:00',
    ]);
  });
});

describe('year boundary', () => {
  const instant = U(2024, 11, 31, 23, 30); // 2024-12-31T23:30Z

  it('depends on the zone', () => {
    expect(labelOf('year', 'UTC', instant)).toBe('2024');
    expect(labelOf('month', 'UTC', instant)).toBe('2024-12');
    expect(labelOf('day', 'UTC', instant)).toBe('2024-12-31');
    // Paris: 2025-01-01 00:30.
    expect(labelOf('year', 'Europe/Paris', instant)).toBe('2025');
    expect(labelOf('month', 'Europe/Paris', instant)).toBe('2025-01');
    expect(labelOf('day', 'Europe/Paris', instant)).toBe('2025-01-01');
    // New York: 2024-12-31 18:30.
    expect(labelOf('year', 'America/New_York', U(2025, 0, 1, 4, 59))).toBe('2024');
    expect(labelOf('year', 'America/New_York', U(2025, 0, 1, 5, 0))).toBe('2025');
  });

  it('steps months and years over the boundary', () => {
    expect(labelsBetween('month', 'UTC', U(2024, 10, 15), U(2025, 1, 3))).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    expect(labelsBetween('year', 'UTC', U(2023, 5, 1), U(2025, 0, 1))).toEqual(['2023', '2024', '2025']);
  });
});

describe('ISO weeks (Monday start)', () => {
  it('2024-12-30 is the Monday of ISO week 1 of 2025', () => {
    expect(isoWeekOfDay(daysFromCivil(2024, 12, 30))).toEqual({ year: 2025, week: 1 });
    expect(isoWeekOfDay(daysFromCivil(2025, 1, 5))).toEqual({ year: 2025, week: 1 });
    expect(isoWeekOfDay(daysFromCivil(2021, 1, 3))).toEqual({ year: 2020, week: 53 });
    expect(isoWeekOfDay(daysFromCivil(2026, 12, 31))).toEqual({ year: 2026, week: 53 });
  });

  it('labels a week by its Monday, across the year boundary', () => {
    expect(labelOf('week', 'UTC', U(2024, 11, 29, 12))).toBe('2024-12-23'); // Sunday
    expect(labelOf('week', 'UTC', U(2024, 11, 30, 0))).toBe('2024-12-30'); // Monday
    expect(labelOf('week', 'UTC', U(2025, 0, 1, 12))).toBe('2024-12-30'); // Wednesday
    expect(labelOf('week', 'UTC', U(2025, 0, 5, 23, 59))).toBe('2024-12-30'); // Sunday
    expect(labelOf('week', 'UTC', U(2025, 0, 6, 0))).toBe('2025-01-06'); // Monday
    // Sunday 2025-01-05 23:30Z is Monday 00:30 in Paris.
    expect(labelOf('week', 'Europe/Paris', U(2025, 0, 5, 23, 30))).toBe('2025-01-06');
  });
});

describe('sub-day labels', () => {
  it('formats seconds and minutes', () => {
    expect(labelOf('second', 'UTC', U(2025, 4, 6, 7, 8, 9, 999))).toBe('2025-05-06 07:08:09');
    expect(labelOf('minute', 'Asia/Kolkata', U(2025, 4, 6, 7, 8, 9))).toBe('2025-05-06 12:38');
    // Kolkata is +05:30: its hours start at :30 UTC.
    expect(labelOf('hour', 'Asia/Kolkata', U(2025, 4, 6, 7, 8))).toBe('2025-05-06 12:00');
  });

  it('refuses to enumerate more buckets than the limit', () => {
    const b = createBucketer('minute', ZoneClock.of('UTC'));
    expect(enumerateBuckets(b, 0, 10 * 60_000, 5)).toBeNull();
    expect(enumerateBuckets(b, 0, 4 * 60_000, 5)).toHaveLength(5);
  });
});

describe('agreement with luxon on random instants (property)', () => {
  // luxon is the reference here: it computes each bucket the slow way, one DateTime per instant.
  const zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Sao_Paulo', 'Pacific/Chatham'];
  const formats: Record<'day' | 'week' | 'month' | 'year', string> = { day: 'yyyy-MM-dd', week: 'yyyy-MM-dd', month: 'yyyy-MM', year: 'yyyy' };
  const instant = fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2035, 0, 1) });

  it.each(Object.keys(formats) as Array<keyof typeof formats>)('%s labels', (interval) => {
    const bucketers = new Map(zones.map((z) => [z, createBucketer(interval, ZoneClock.of(z))]));
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), (t, zone) => {
        const b = bucketers.get(zone)!;
        const expected = DateTime.fromMillis(t, { zone }).startOf(interval).toFormat(formats[interval]);
        expect(b.label(b.bucket(t))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('hour buckets start where luxon says the local hour starts', () => {
    const bucketers = new Map(zones.map((z) => [z, createBucketer('hour', ZoneClock.of(z))]));
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), (t, zone) => {
        const key = bucketers.get(zone)!.bucket(t);
        expect(key).toBe(DateTime.fromMillis(t, { zone }).startOf('hour').toMillis());
      }),
      { numRuns: 2000 },
    );
  });

  it('a half-hour DST shift inside an hour (Lord Howe, spring and autumn) starts the hour where luxon does', () => {
    const b = createBucketer('hour', ZoneClock.of('Australia/Lord_Howe'));
    // 1995-10-29 02:00 local jumped to 02:30 (+10:30 -> +11:00), and 1996-03-31 02:00 went back to 01:30.
    for (const t of [814894200000, 814894200000 + 10 * 60_000, 814894200000 - 60_000, 828196200000, 828196200000 + 20 * 60_000, 828196200000 - 20 * 60_000]) {
      expect(b.bucket(t), String(t)).toBe(DateTime.fromMillis(t, { zone: 'Australia/Lord_Howe' }).startOf('hour').toMillis());
    }
  });

  it('ISO strings with an offset read back as the same instant', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), (t, zone) => {
        const iso = DateTime.fromMillis(t, { zone }).toISO()!;
        expect(toEpochMs(iso, ZoneClock.of('UTC'))).toBe(t);
      }),
      { numRuns: 1000 },
    );
  });
});
