/**
 * Growth between the last point and the one before it. The percent is the real change relative
 * to the previous value (null when there is no previous value or it is 0, where a percentage
 * means nothing); `invertGrowth` flips only the status, for measures where lower is better.
 */
import type { GrowthStatus } from './types.js';
import { roundTo } from './values.js';

export interface Growth {
  previous: number | null;
  percent: number | null;
  status: GrowthStatus;
}

export function computeGrowth(value: number | null, previous: number | null, invert: boolean): Growth {
  if (value === null || previous === null) return { previous, percent: null, status: 'neutral' };
  const diff = value - previous;
  const percent = previous === 0 ? null : roundTo((diff / Math.abs(previous)) * 100, 2);
  const status: GrowthStatus = diff === 0 ? 'neutral' : diff > 0 !== invert ? 'positive' : 'negative';
  return { previous, percent, status };
}

/** Goal progress in percent, 2 decimals; null for a zero goal or a missing value. */
export function goalPercent(value: number | null, goal: number): number | null {
  if (value === null || goal === 0) return null;
  return roundTo((value / goal) * 100, 2);
}
