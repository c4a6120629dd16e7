import { describe, expect, it } from 'vitest';
import { resolveDateWindow } from './date-window.js';
import { ZoneClock } from './zone-clock.js';

const U = Date.UTC;
const utc = ZoneClock.of('UTC');
const paris = ZoneClock.of('Europe/Paris');

describe('resolveDateWindow', () => {
  it('is null without dates', () => {
    expect(resolveDateWindow({}, 'day', utc)).toBeNull();
  });

  it('runs from the start of the first local day to the end of the last', () => {
    expect(resolveDateWindow({ startDate: '2025-01-02T15:00:00Z', endDate: '2025-01-04T01:00:00Z' }, 'day', utc)).toEqual({
      start: U(2025, 0, 2),
      end: U(2025, 0, 4, 23, 59, 59, 999),
    });
    // In Paris (UTC+1 in winter) the local days start at 23:00Z the day before.
    expect(resolveDateWindow({ startDate: '2025-01-02', endDate: '2025-01-04' }, 'day', paris)).toEqual({
      start: U(2025, 0, 1, 23),
      end: U(2025, 0, 4, 22, 59, 59, 999),
    });
  });

  it('keeps the exact start with fixedStartDate, and allows open ends', () => {
    expect(resolveDateWindow({ startDate: '2025-01-02T15:00:00Z', fixedStartDate: true }, 'day', utc)).toEqual({
      start: U(2025, 0, 2, 15),
      end: null,
    });
    expect(resolveDateWindow({ endDate: new Date(U(2025, 0, 4, 12)) }, 'day', utc)).toEqual({
      start: null,
      end: U(2025, 0, 4, 23, 59, 59, 999),
    });
  });

  it('rolls to end now, keeping its length in whole units (injected clock)', () => {
    const now = new Date(U(2025, 5, 10, 18)); // 2025-06-10T18:00Z
    // 2025-01-01 … 2025-01-07 is 6 whole days after its start: the window becomes Jun 4 … Jun 10.
    expect(resolveDateWindow({ startDate: '2025-01-01', endDate: '2025-01-07', currentEndDate: true, now }, 'day', utc)).toEqual({
      start: U(2025, 5, 4),
      end: U(2025, 5, 10, 23, 59, 59, 999),
    });
    // By month: Jan 1 … Mar 31 spans 2 whole months after its start: Apr 1 … Jun 30.
    expect(resolveDateWindow({ startDate: '2025-01-01', endDate: '2025-03-31', currentEndDate: true, now }, 'month', utc)).toEqual({
      start: U(2025, 3, 1),
      end: U(2025, 5, 30, 23, 59, 59, 999),
    });
    // By ISO week: the end is Sunday 2025-06-15, the start a Monday.
    expect(resolveDateWindow({ startDate: '2025-01-06', endDate: '2025-01-19', currentEndDate: true, now }, 'week', utc)).toEqual({
      start: U(2025, 5, 2),
      end: U(2025, 5, 15, 23, 59, 59, 999),
    });
  });

  it('keeps a fixed start while the end rolls', () => {
    const now = new Date(U(2025, 5, 10, 18));
    expect(
      resolveDateWindow({ startDate: '2025-01-01T08:00:00Z', endDate: '2025-01-07', currentEndDate: true, fixedStartDate: true, now }, 'day', utc),
    ).toEqual({ start: U(2025, 0, 1, 8), end: U(2025, 5, 10, 23, 59, 59, 999) });
  });

  it('rejects dates it cannot read', () => {
    expect(() => resolveDateWindow({ startDate: 'someday' }, 'day', utc)).toThrow(/startDate/);
  });
});
