import { refreshOverdue, type RefreshOverdue } from '../../runtime/scheduler/cadence.js';
import type { Chart } from './charts-repository.js';

/** What the rule reads of a chart's dashboard: its refresh schedule, and when it was last saved. */
export interface DashboardSchedule {
  updateSchedule: unknown;
  updatedAt: string | null;
}

/**
 * Whether a chart's saved data is overdue by its schedules (src/runtime/scheduler/cadence.ts, the
 * one rule the editor applies too): for the shared pages and the pictures, which are not given
 * the schedules themselves. Only for saved data: data computed for the request is not old.
 */
export function chartOverdue(chart: Chart, dashboard: DashboardSchedule, now: Date): RefreshOverdue | null {
  return refreshOverdue(
    {
      type: chart.type,
      chartDataUpdated: chart.chartDataUpdated,
      autoUpdate: chart.autoUpdate,
      chartUpdatedAt: chart.updatedAt,
      updateSchedule: dashboard.updateSchedule,
      dashboardUpdatedAt: dashboard.updatedAt,
    },
    now,
  );
}
