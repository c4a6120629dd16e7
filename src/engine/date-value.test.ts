import { describe, expect, it } from 'vitest';
import { toEpochMs } from './date-value.js';
import { ZoneClock } from './zone-clock.js';

const utc = ZoneClock.of('UTC');
const paris = ZoneClock.of('Europe/Paris');
const newYork = ZoneClock.of('America/New_York');

// 2025-01-01T10:00:00Z, computed by hand: 1735689600 s is 2025-01-01T00:00Z, plus 36000 s.
const TEN_AM_S = 1_735_725_600;
const TEN_AM_MS = 1_735_725_600_000;

describe('toEpochMs', () => {
  it('reads Date objects', () => {
    expect(toEpochMs(new Date(TEN_AM_MS), utc)).toBe(TEN_AM_MS);
    expect(toEpochMs(new Date('nope'), utc)).toBeNaN();
  });

  it('reads 10-digit epochs as seconds and 13-digit epochs as milliseconds', () => {
    expect(toEpochMs(TEN_AM_S, utc)).toBe(TEN_AM_MS);
    expect(toEpochMs(TEN_AM_MS, utc)).toBe(TEN_AM_MS);
    expect(toEpochMs(String(TEN_AM_S), utc)).toBe(TEN_AM_MS);
    expect(toEpochMs(String(TEN_AM_MS), utc)).toBe(TEN_AM_MS);
    expect(toEpochMs(BigInt(TEN_AM_S), utc)).toBe(TEN_AM_MS);
  });

  it('reads ISO strings with an offset as instants', () => {
    expect(toEpochMs('2025-01-01T10:00:00Z', paris)).toBe(TEN_AM_MS);
    expect(toEpochMs('2025-01-01T11:00:00+01:00', utc)).toBe(TEN_AM_MS);
    expect(toEpochMs('2025-01-01T05:00:00-0500', utc)).toBe(TEN_AM_MS);
    expect(toEpochMs('2025-01-01 10:00:00+00', utc)).toBe(TEN_AM_MS);
    expect(toEpochMs('2025-01-01T10:00:00.250Z', utc)).toBe(TEN_AM_MS + 250);
    expect(toEpochMs('2025-01-01T10:00:00.123456Z', utc)).toBe(TEN_AM_MS + 123);
    expect(toEpochMs('2025-01-01T10:00Z', utc)).toBe(TEN_AM_MS);
  });

  it('reads ISO strings without an offset as wall-clock time in the zone', () => {
    expect(toEpochMs('2025-01-01T10:00:00', utc)).toBe(TEN_AM_MS);
    // Paris is UTC+1 in January: 10:00 local is 09:00Z.
    expect(toEpochMs('2025-01-01T10:00:00', paris)).toBe(TEN_AM_MS - 3_600_000);
    // New York is UTC-5 in January: 10:00 local is 15:00Z.
    expect(toEpochMs('2025-01-01 10:00', newYork)).toBe(TEN_AM_MS + 5 * 3_600_000);
    // Date-only: local midnight.
    expect(toEpochMs('2025-01-01', paris)).toBe(Date.UTC(2024, 11, 31, 23));
    expect(toEpochMs('2025-01', utc)).toBe(Date.UTC(2025, 0, 1));
    expect(toEpochMs('2025', utc)).toBe(Date.UTC(2025, 0, 1));
  });

  it('moves a wall time skipped by DST forward and resolves a repeated one to the earlier instant', () => {
    // Paris 2025-03-30: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist → 01:30Z (03:30 CEST).
    expect(toEpochMs('2025-03-30T02:30:00', paris)).toBe(Date.UTC(2025, 2, 30, 1, 30));
    // Paris 2025-10-26: 02:30 happens at 00:30Z (CEST) and at 01:30Z (CET); the earlier wins.
    expect(toEpochMs('2025-10-26T02:30:00', paris)).toBe(Date.UTC(2025, 9, 26, 0, 30));
    // A wall time just after the change is unambiguous: 03:30 CET = 02:30Z.
    expect(toEpochMs('2025-10-26T03:30:00', paris)).toBe(Date.UTC(2025, 9, 26, 2, 30));
  });

  it('gives NaN for what is not a date', () => {
    for (const v of ['hello', '2025-13-01', '2025-02-30', '2025-01-01T25:00', '', true, null, undefined, {}, [1]]) {
      expect(toEpochMs(v, utc)).toBeNaN();
    }
  });

  it('falls back to Date.parse for other textual dates', () => {
    expect(toEpochMs('Wed, 01 Jan 2025 10:00:00 GMT', utc)).toBe(TEN_AM_MS);
  });
});

describe('ZoneClock', () => {
  it('knows the offsets on both sides of the Paris transitions', () => {
    const h = 3_600_000;
    expect(paris.offsetMs(Date.UTC(2025, 2, 30, 0, 59, 59, 999))).toBe(h);
    expect(paris.offsetMs(Date.UTC(2025, 2, 30, 1))).toBe(2 * h);
    expect(paris.offsetMs(Date.UTC(2025, 9, 26, 0, 59, 59, 999))).toBe(2 * h);
    expect(paris.offsetMs(Date.UTC(2025, 9, 26, 1))).toBe(h);
    // Back in time after a later lookup still answers right (the cache is not one-way).
    expect(paris.offsetMs(Date.UTC(2025, 0, 15))).toBe(h);
    expect(newYork.offsetMs(Date.UTC(2025, 6, 1))).toBe(-4 * h);
  });

  it('accepts UTC spellings and fixed offsets, and rejects unknown zones', () => {
    expect(ZoneClock.of(null).offsetMs(0)).toBe(0);
    expect(ZoneClock.of('Etc/UTC').offsetMs(0)).toBe(0);
    expect(ZoneClock.of('UTC+2').offsetMs(0)).toBe(2 * 3_600_000);
    expect(() => ZoneClock.of('Mars/Olympus')).toThrow(/unknown time zone/);
  });
});
