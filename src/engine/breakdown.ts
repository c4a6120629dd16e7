/**
 * A configuration with a `breakdown` draws one series per distinct value of that field. Both paths
 * (streaming, pushdown) hand in its points per value (`AggregatedSeries.breakdown`); here each
 * value becomes a series of its own, with a plan of its own, before the chart is shaped, so the
 * shared axis, gap filling, running totals, formula, sort and maxRecords treat them like any
 * other series.
 *
 * - Order: by total descending (the sum of the value's points), ties by the value in axis order
 *   (numbers first, then text by code units: compareLabels).
 * - At most `MAX_BREAKDOWN_SERIES` series per configuration. The rest are left out, not summed into
 *   an "Other" series: an average, an extreme or a count of distinct values cannot be added up
 *   from finished points. chartData says so (`seriesTruncated`, `seriesLimit`, `breakdowns`).
 * - Labels are the values; colours come from the palette by the series' place among the chart's
 *   series. A breakdown series has no goal (as in Chartbrew).
 */
import { paletteColor } from './colors.js';
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

export function expandBreakdowns(plans: readonly SeriesPlan[], series: readonly AggregatedSeries[], limit = MAX_BREAKDOWN_SERIES): ExpandedSeries {
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
    const ranked = [...aggregated.breakdown].map(([value, points]) => ({ value, points, total: totalOf(points) }));
    ranked.sort((a, b) => (a.total === b.total ? compareLabels(a.value, b.value) : b.total - a.total));
    if (ranked.length > limit) cuts.push({ datasetIndex: plan.index, label: plan.label, series: ranked.length, shown: limit });
    for (const { value, points } of ranked.slice(0, limit)) {
      const color = paletteColor(outPlans.length);
      outPlans.push({
        ...plan,
        label: value,
        goal: null,
        // One colour per series: the configuration's colours were for its single series.
        config: { ...plan.config, legend: value, datasetColor: color, fillColor: null, multiFill: false, goal: null },
      });
      outSeries.push({ axis: aggregated.axis, points });
    }
  });
  return { plans: outPlans, series: outSeries, cuts };
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
