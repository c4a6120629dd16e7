/**
 * A configuration with a `breakdown` draws one series per distinct value of that field. Both paths
 * (streaming, pushdown) hand in its points per value (`AggregatedSeries.breakdown`); here each
 * value becomes a series of its own, with a plan of its own, before the chart is shaped, so the
 * shared axis, gap filling, running totals, formula, sort and maxRecords treat them like any
 * other series.
 *
 * - Order: by total descending (the sum of the value's points), ties by the value in axis order
 *   (numbers first, then text by code units: compareLabels).
 * - At most `breakdownLimit` series (default and most `MAX_BREAKDOWN_SERIES`) per configuration.
 *   The rest are left out, and chartData says so (`seriesTruncated`, `seriesLimit`, `breakdowns`),
 *   unless `breakdownOther` sums them into one more series (`breakdownOtherLabel`, "Other"): only
 *   for count and sum, since an average, an extreme or a count of distinct values cannot be added
 *   up from finished points (the engine refuses it for those).
 * - Labels are the values; colours come from the palette by the series' place among the chart's
 *   series. A breakdown series has no goal (as in Chartbrew).
 */
import { paletteColor } from './colors.js';
import { InvalidChartConfigError } from './errors.js';
import type { AggregatedSeries, SeriesPlan } from './series.js';
import type { BreakdownCut } from './types.js';
import { compareLabels } from './values.js';

/** Series one configuration's breakdown draws at most. */
export const MAX_BREAKDOWN_SERIES = 20;

export interface ExpandedSeries {
  readonly plans: SeriesPlan[];
  readonly series: AggregatedSeries[];
  /** Configurations whose breakdown had more values than the limit. */
  readonly cuts: BreakdownCut[];
}

/** Operations whose finished points add up to the points of the rows together: an "Other" series may sum them. */
export const ADDITIVE_OPERATIONS: ReadonlySet<string> = new Set(['count', 'sum']);

export function expandBreakdowns(plans: readonly SeriesPlan[], series: readonly AggregatedSeries[]): ExpandedSeries {
  if (!series.some((s) => s.breakdown !== undefined)) return { plans: [...plans], series: [...series], cuts: [] };
  const outPlans: SeriesPlan[] = [];
  const outSeries: AggregatedSeries[] = [];
  const cuts: BreakdownCut[] = [];
  plans.forEach((plan, i) => {
    const aggregated = series[i]!;
    if (aggregated.breakdown === undefined) {
      outPlans.push(plan);
      outSeries.push(aggregated);
      return;
    }
    const { limit, other, otherLabel } = seriesOptions(plan);
    const ranked = [...aggregated.breakdown].map(([value, points]) => ({ value, points, total: totalOf(points) }));
    ranked.sort((a, b) => (a.total === b.total ? compareLabels(a.value, b.value) : b.total - a.total));
    const rest = ranked.slice(limit);
    if (rest.length > 0 && !other) cuts.push({ datasetIndex: plan.index, label: plan.label, series: ranked.length, shown: limit });
    const drawn = ranked.slice(0, limit).map(({ value, points }) => ({ label: value, points }));
    if (rest.length > 0 && other) drawn.push({ label: otherLabel, points: sumOf(rest.map((r) => r.points)) });
    for (const { label, points } of drawn) {
      const color = paletteColor(outPlans.length);
      outPlans.push({
        ...plan,
        label,
        goal: null,
        // One colour per series: the configuration's colours were for its single series.
        config: { ...plan.config, legend: label, datasetColor: color, fillColor: null, multiFill: false, goal: null },
      });
      outSeries.push({ axis: aggregated.axis, points });
    }
  });
  return { plans: outPlans, series: outSeries, cuts };
}

/** A configuration's limit and "Other" series, checked: an "Other" only where points add up. */
function seriesOptions(plan: SeriesPlan): { limit: number; other: boolean; otherLabel: string } {
  const { breakdownLimit, breakdownOther, breakdownOtherLabel } = plan.config;
  const at = `datasets[${plan.index}]`;
  let limit = MAX_BREAKDOWN_SERIES;
  if (breakdownLimit !== undefined && breakdownLimit !== null) {
    if (!Number.isInteger(breakdownLimit) || breakdownLimit < 1 || breakdownLimit > MAX_BREAKDOWN_SERIES) {
      throw new InvalidChartConfigError(`${at}.breakdownLimit`, `must be an integer from 1 to ${MAX_BREAKDOWN_SERIES}`);
    }
    limit = breakdownLimit;
  }
  const other = breakdownOther === true;
  if (other && !ADDITIVE_OPERATIONS.has(plan.operation)) {
    throw new InvalidChartConfigError(`${at}.breakdownOther`, `sums the series past the limit: it needs a count or a sum, not ${plan.operation}`);
  }
  const label = breakdownOtherLabel?.trim();
  return { limit, other, otherLabel: label ? label : 'Other' };
}

/** The points of several series added key by key; a key without a value in any of them stays empty. */
function sumOf(all: readonly ReadonlyMap<number | string, number | null>[]): Map<number | string, number | null> {
  const out = new Map<number | string, number | null>();
  for (const points of all) {
    for (const [key, value] of points) {
      const before = out.get(key) ?? null;
      out.set(key, value === null ? before : (before ?? 0) + value);
    }
  }
  return out;
}

/**
 * The sum of a value's points (empty ones as 0), added smallest first so that it does not depend
 * on the order the points came in (the database's or the rows').
 */
function totalOf(points: ReadonlyMap<number | string, number | null>): number {
  const values: number[] = [];
  for (const v of points.values()) values.push(v ?? 0);
  values.sort((a, b) => a - b);
  let sum = 0;
  for (const v of values) sum += v;
  return sum;
}
