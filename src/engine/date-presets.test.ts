import { describe, expect, it } from 'vitest';
import { DATE_PRESETS, isRangeBound, resolveDateRange, type DatePreset } from './date-presets.js';
import { InvalidChartConfigError } from './errors.js';

const at = (iso: string) => new Date(iso);
const range = (preset: DatePreset, timezone: string | null, now: string) => resolveDateRange({ preset }, timezone, at(now));

/** The InvalidChartConfigError `fn` throws, to read the field it names. */
function failure(fn: () => unknown): InvalidChartConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidChartConfigError) return error;
    throw error;
  }
  throw new Error('expected an InvalidChartConfigError');
}

describe('resolveDateRange: presets in UTC on Wednesday 2025-05-14', () => {
  const now = '2025-05-14T10:00:00Z';
  it.each<[DatePreset, string, string]>([
    ['today', '2025-05-14T00:00:00.000Z', '2025-05-14T23:59:59.999Z'],
    ['yesterday', '2025-05-13T00:00:00.000Z', '2025-05-13T23:59:59.999Z'],
    // The N days ending today, today included.
    ['last_7_days', '2025-05-08T00:00:00.000Z', '2025-05-14T23:59:59.999Z'],
    ['last_30_days', '2025-04-15T00:00:00.000Z', '2025-05-14T23:59:59.999Z'],
    ['last_90_days', '2025-02-14T00:00:00.000Z', '2025-05-14T23:59:59.999Z'],
    // Weeks run Monday to Sunday.
    ['this_week', '2025-05-12T00:00:00.000Z', '2025-05-18T23:59:59.999Z'],
    ['last_week', '2025-05-05T00:00:00.000Z', '2025-05-11T23:59:59.999Z'],
    ['this_month', '2025-05-01T00:00:00.000Z', '2025-05-31T23:59:59.999Z'],
    ['last_month', '2025-04-01T00:00:00.000Z', '2025-04-30T23:59:59.999Z'],
    ['this_quarter', '2025-04-01T00:00:00.000Z', '2025-06-30T23:59:59.999Z'],
    ['last_quarter', '2025-01-01T00:00:00.000Z', '2025-03-31T23:59:59.999Z'],
    ['this_year', '2025-01-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z'],
    ['last_year', '2024-01-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z'],
  ])('%s', (preset, startDate, endDate) => {
    expect(range(preset, 'UTC', now)).toEqual({ startDate, endDate });
  });

  it('knows every preset of the contract', () => {
    expect([...DATE_PRESETS].sort()).toEqual(
      ['custom', 'last_30_days', 'last_7_days', 'last_90_days', 'last_month', 'last_quarter', 'last_week', 'last_year', 'this_month', 'this_quarter', 'this_week', 'this_year', 'today', 'yesterday'].sort(),
    );
  });

  it('a missing zone is UTC', () => {
    expect(range('today', null, now)).toEqual(range('today', 'UTC', now));
  });
});

describe('resolveDateRange: week starts on Monday', () => {
  it('on a Sunday the week is the one that began six days before', () => {
    expect(range('this_week', 'UTC', '2025-05-18T23:00:00Z')).toEqual({ startDate: '2025-05-12T00:00:00.000Z', endDate: '2025-05-18T23:59:59.999Z' });
  });
  it('on a Monday a new week begins that day', () => {
    expect(range('this_week', 'UTC', '2025-05-19T00:00:00Z')).toEqual({ startDate: '2025-05-19T00:00:00.000Z', endDate: '2025-05-25T23:59:59.999Z' });
    expect(range('last_week', 'UTC', '2025-05-19T00:00:00Z')).toEqual({ startDate: '2025-05-12T00:00:00.000Z', endDate: '2025-05-18T23:59:59.999Z' });
  });
  it('a week across a year edge', () => {
    // 2025-01-01 is a Wednesday: its week began on Monday 2024-12-30.
    expect(range('this_week', 'UTC', '2025-01-01T12:00:00Z')).toEqual({ startDate: '2024-12-30T00:00:00.000Z', endDate: '2025-01-05T23:59:59.999Z' });
  });
});

describe('resolveDateRange: days are those of the zone', () => {
  it('late evening in New York is still the previous UTC day', () => {
    // 2025-05-14T02:00Z is 22:00 on May 13 in New York (UTC-4).
    expect(range('today', 'America/New_York', '2025-05-14T02:00:00Z')).toEqual({ startDate: '2025-05-13T04:00:00.000Z', endDate: '2025-05-14T03:59:59.999Z' });
  });

  it('the spring-forward day is 23 hours long', () => {
    // Europe/Paris moves from +01:00 to +02:00 on 2025-03-30.
    expect(range('today', 'Europe/Paris', '2025-03-30T12:00:00Z')).toEqual({ startDate: '2025-03-29T23:00:00.000Z', endDate: '2025-03-30T21:59:59.999Z' });
  });

  it('the fall-back day is 25 hours long', () => {
    // Europe/Paris moves from +02:00 to +01:00 on 2025-10-26.
    expect(range('today', 'Europe/Paris', '2025-10-26T12:00:00Z')).toEqual({ startDate: '2025-10-25T22:00:00.000Z', endDate: '2025-10-26T22:59:59.999Z' });
  });

  it('a range across the change keeps local midnights at both ends', () => {
    expect(range('last_7_days', 'Europe/Paris', '2025-04-02T10:00:00Z')).toEqual({ startDate: '2025-03-26T23:00:00.000Z', endDate: '2025-04-02T21:59:59.999Z' });
  });

  it('quarter and year edges: just after midnight of January 1 in Paris, still December 31 in UTC', () => {
    const now = '2024-12-31T23:30:00Z';
    expect(range('this_quarter', 'Europe/Paris', now)).toEqual({ startDate: '2024-12-31T23:00:00.000Z', endDate: '2025-03-31T21:59:59.999Z' });
    expect(range('last_quarter', 'Europe/Paris', now)).toEqual({ startDate: '2024-09-30T22:00:00.000Z', endDate: '2024-12-31T22:59:59.999Z' });
    expect(range('this_year', 'Europe/Paris', now)).toEqual({ startDate: '2024-12-31T23:00:00.000Z', endDate: '2025-12-31T22:59:59.999Z' });
    expect(range('last_year', 'Europe/Paris', now)).toEqual({ startDate: '2023-12-31T23:00:00.000Z', endDate: '2024-12-31T22:59:59.999Z' });
    // The same instant in UTC is still in the last quarter of 2024.
    expect(range('this_quarter', 'UTC', now)).toEqual({ startDate: '2024-10-01T00:00:00.000Z', endDate: '2024-12-31T23:59:59.999Z' });
  });

  it('last_month from March 31 is all of February (no day overflow)', () => {
    expect(range('last_month', 'UTC', '2024-03-31T12:00:00Z')).toEqual({ startDate: '2024-02-01T00:00:00.000Z', endDate: '2024-02-29T23:59:59.999Z' });
  });
});

describe('resolveDateRange: custom ranges', () => {
  const now = at('2025-05-14T10:00:00Z');
  it('dates are whole days of the zone', () => {
    expect(resolveDateRange({ preset: 'custom', startDate: '2025-01-05', endDate: '2025-01-10' }, 'Europe/Paris', now)).toEqual({
      startDate: '2025-01-04T23:00:00.000Z',
      endDate: '2025-01-10T22:59:59.999Z',
    });
  });

  it('a date-time with an offset is its instant; one without is read in the zone', () => {
    expect(resolveDateRange({ startDate: '2025-01-05T10:00:00Z', endDate: '2025-01-06T10:00:00+02:00' }, 'Europe/Paris', now)).toEqual({
      startDate: '2025-01-05T10:00:00.000Z',
      endDate: '2025-01-06T08:00:00.000Z',
    });
    expect(resolveDateRange({ startDate: '2025-01-05T10:00' }, 'Europe/Paris', now)).toEqual({ startDate: '2025-01-05T09:00:00.000Z', endDate: null });
  });

  it('no preset is custom; one bound leaves the other side open', () => {
    expect(resolveDateRange({ endDate: '2025-02-01' }, 'UTC', now)).toEqual({ startDate: null, endDate: '2025-02-01T23:59:59.999Z' });
  });

  it('a preset ignores the dates beside it', () => {
    expect(resolveDateRange({ preset: 'today', startDate: '2001-01-01', endDate: '2001-01-02' }, 'UTC', now)).toEqual(range('today', 'UTC', now.toISOString()));
  });
});

describe('resolveDateRange: what cannot make a range', () => {
  const now = at('2025-05-14T10:00:00Z');
  it.each<[string, Parameters<typeof resolveDateRange>[0], string | null, string]>([
    ['a custom range without dates', { preset: 'custom' }, 'UTC', 'startDate'],
    ['no preset and no dates', {}, 'UTC', 'startDate'],
    ['an end before the start', { startDate: '2025-02-02', endDate: '2025-02-01' }, 'UTC', 'endDate'],
    ['an unknown preset', { preset: 'next_week' as DatePreset }, 'UTC', 'preset'],
    ['a month 13', { startDate: '2025-13-01' }, 'UTC', 'startDate'],
    ['words', { endDate: 'last tuesday' }, 'UTC', 'endDate'],
    ['an unknown zone', { preset: 'today' }, 'Mars/Olympus', 'timezone'],
  ])('%s', (_name, input, timezone, field) => {
    expect(failure(() => resolveDateRange(input, timezone, now)).details?.[0]?.path).toBe(field);
  });
});

describe('isRangeBound', () => {
  it.each(['2025-01-05', '2025-01-05T10:00', '2025-01-05T10:00:00Z', '2025-01-05T10:00:00.123+02:00'])('%s is one', (value) => {
    expect(isRangeBound(value)).toBe(true);
  });
  it.each(['', '2025-1-5', '2025-02-30', 'yesterday', '1736071200'])('%s is not', (value) => {
    expect(isRangeBound(value)).toBe(false);
  });
});
