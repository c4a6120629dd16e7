/*
 * Alert rules computed from a chart's chartData, and only from it:
 * - threshold_above / threshold_below: the latest value (a KPI's shown value, else the last
 *   non-null point of the series) is above / below `rules.value`;
 * - milestone: the latest value has reached `rules.value` (>=); the alert turns itself off after it fires;
 * - anomaly: the latest point is more than `rules.value` (default 3) standard deviations from the
 *   mean of the points before it (at least 5 of them; a flat history with a different latest
 *   point counts as an anomaly).
 * Charts without a numeric series (tables, matrices, markdown) never trigger.
 */

export const ALERT_TYPES = ['milestone', 'threshold_above', 'threshold_below', 'anomaly'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export interface AlertRules {
  value?: number;
}

export interface Evaluation {
  triggered: boolean;
  /** The value the rule looked at (null when the chart has none). */
  value: number | null;
  message: string;
}

const ANOMALY_MIN_HISTORY = 5;
const ANOMALY_DEFAULT_SIGMAS = 3;

/** The numeric series of dataset `index` and the value the chart shows for it. */
export function seriesOf(chartData: unknown, index: number): { points: number[]; latest: number | null } {
  const data = chartData as { data?: { datasets?: { data?: unknown[] }[] }; values?: { value: unknown }[] } | null;
  const raw = data?.data?.datasets?.[index]?.data;
  const points = Array.isArray(raw) ? raw.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)) : [];
  const shown = data?.values?.[index]?.value;
  const latest = typeof shown === 'number' && Number.isFinite(shown) ? shown : (points.at(-1) ?? null);
  return { points, latest };
}

export function evaluate(type: AlertType, rules: AlertRules, chartData: unknown, datasetIndex = 0): Evaluation {
  const { points, latest } = seriesOf(chartData, datasetIndex);
  if (latest === null) return { triggered: false, value: null, message: 'The chart has no numeric value to check' };
  const target = rules.value;
  switch (type) {
    case 'threshold_above':
      return target !== undefined && latest > target
        ? { triggered: true, value: latest, message: `The value ${latest} is above ${target}` }
        : { triggered: false, value: latest, message: `The value ${latest} is not above ${target}` };
    case 'threshold_below':
      return target !== undefined && latest < target
        ? { triggered: true, value: latest, message: `The value ${latest} is below ${target}` }
        : { triggered: false, value: latest, message: `The value ${latest} is not below ${target}` };
    case 'milestone':
      return target !== undefined && latest >= target
        ? { triggered: true, value: latest, message: `The milestone ${target} was reached (${latest})` }
        : { triggered: false, value: latest, message: `The milestone ${target} is not reached yet (${latest})` };
    case 'anomaly': {
      const history = points.slice(0, -1);
      const last = points.at(-1);
      if (last === undefined || history.length < ANOMALY_MIN_HISTORY) {
        return { triggered: false, value: last ?? latest, message: `Anomaly detection needs at least ${ANOMALY_MIN_HISTORY} earlier points` };
      }
      const sigmas = target ?? ANOMALY_DEFAULT_SIGMAS;
      const mean = history.reduce((a, b) => a + b, 0) / history.length;
      const sd = Math.sqrt(history.reduce((a, b) => a + (b - mean) ** 2, 0) / history.length);
      const off = sd === 0 ? (last === mean ? 0 : Infinity) : Math.abs(last - mean) / sd;
      const rounded = Number(mean.toFixed(4));
      return off > sigmas
        ? { triggered: true, value: last, message: `The latest value ${last} is ${Number.isFinite(off) ? off.toFixed(1) : 'infinitely many'} standard deviations from the mean ${rounded}` }
        : { triggered: false, value: last, message: `The latest value ${last} is within ${sigmas} standard deviations of the mean ${rounded}` };
    }
  }
}
