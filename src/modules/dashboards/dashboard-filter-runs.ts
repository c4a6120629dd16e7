import { AppError, ValidationError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import { mapLimited } from '../../runtime/map-limited.js';
import { filtersInReach, parseFilters, parseRuntimeVariables, type RuntimeFilter } from '../data/index.js';
import type { Chart, ProjectRef } from './charts-repository.js';
import type { ChartsService } from './charts-service.js';
import type { ChartRunResult, ChartRunService, LoadedChart } from './chart-runs-service.js';
import type { ChartRunFailureView, FilteredChartView, FilterReachView } from './dashboard-filters-schemas.js';
import type { ProjectsService } from './projects-service.js';
import type { ChartFailure, ShareViewer, ViewRequest } from './share-viewer.js';
import type { ViewerFilterRequest } from './share-filter-state.js';
import type { SharedFilteredChartView } from './sharing-public-schemas.js';

/** A filter state as the run routes receive it: `filters` and `variables` of the body, parsed by whoever decides what they may hold. */
export type FilterRunRequest = ViewerFilterRequest;

export interface FilterRunSettings {
  /** Charts of one dashboard computed at the same time. */
  concurrency: number;
}

export interface FilterRunDeps {
  charts: ChartsService;
  projects: ProjectsService;
  chartRuns: ChartRunService;
  viewer: ShareViewer;
  settings: FilterRunSettings;
}

/**
 * Runs with a runtime filter state for members of the dashboard's team: one chart, or the whole
 * dashboard in one request (a few charts at a time). Never saved; through the result cache, so
 * identical states share one computation and one entry.
 */
export class FilterRunsService {
  constructor(private readonly deps: FilterRunDeps) {}

  /**
   * `POST /project/{pid}/chart/{id}/filter`. A member (`actor`) is answered by the role table;
   * an anonymous caller, or a member the role table turns away while the request carries a share
   * token, by the rules of the shared report (ShareViewer).
   */
  async chartForCaller(
    actor: Actor | null,
    projectId: number,
    chartId: number,
    input: FilterRunRequest,
    view: ViewRequest,
    failures: ChartFailure[],
  ): Promise<FilteredChartView | SharedFilteredChartView> {
    if (actor) {
      try {
        return await this.chart(actor, projectId, chartId, input);
      } catch (error) {
        const denied = error instanceof AppError && (error.statusCode === 403 || error.statusCode === 404);
        if (!denied || view.token === undefined || view.token === '') throw error;
      }
    }
    return this.deps.viewer.filterChart(projectId, chartId, view, input, failures);
  }

  async chart(actor: Actor, projectId: number, chartId: number, input: FilterRunRequest): Promise<FilteredChartView> {
    const { chart, project } = await this.deps.charts.authorize(actor, projectId, chartId, 'chart:query');
    return this.run({ chart, project }, runInputs(input));
  }

  /** `POST /project/{id}/filter`: every chart of the dashboard, or those of `chartIds`, in that order. */
  async dashboard(
    actor: Actor,
    projectId: number,
    input: FilterRunRequest & { chartIds?: readonly number[] | undefined },
    failures: ChartFailure[],
  ): Promise<{ charts: (FilteredChartView | ChartRunFailureView)[] }> {
    const { project } = await this.deps.projects.authorize(actor, projectId, 'chart:query');
    const dashboard = await this.deps.projects.loadDashboard(project.team_id, projectId);
    const all = dashboard?.Charts ?? [];
    const charts = input.chartIds === undefined ? all : input.chartIds.map((id, i) => all.find((c) => c.id === id) ?? notOnDashboard(i));
    const ref = { id: project.id, team_id: project.team_id, timezone: project.timezone };
    return { charts: await this.runCharts(ref, charts, input, failures) };
  }

  /**
   * `POST /project/{id}/filter-reach`: for each chart of the dashboard (markdown ones have no data
   * to narrow and are left out), the ids of the state's filters that would narrow it once they
   * have a value, and those that would not; by the run's own rule (`filtersInReach`) over what a
   * run binds, with no source queried. Any member who may read the dashboard.
   */
  async reach(actor: Actor, projectId: number, input: FilterRunRequest): Promise<FilterReachView> {
    const { project } = await this.deps.projects.authorize(actor, projectId, 'project:read');
    // Parsed as the run parses it (a bad state is the same 400); variables narrow nothing by themselves.
    const { filters } = runInputs(input);
    const dashboard = await this.deps.projects.loadDashboard(project.team_id, projectId);
    const charts = (dashboard?.Charts ?? []).filter((chart) => chart.type !== 'markdown');
    const targets = await this.deps.chartRuns.filterTargetsOf({ id: project.id, team_id: project.team_id, timezone: project.timezone }, charts);
    // As in `filteredBy`, a filter sent without an id is named in neither list.
    const named = [...new Set(filters.flatMap((filter) => (filter.id !== undefined ? [filter.id] : [])))];
    return {
      charts: charts.map((chart) => {
        const reachedBy = filtersInReach(filters, chart.id, targets.get(chart.id) ?? []);
        return { id: chart.id, reachedBy, notReachedBy: named.filter((id) => !reachedBy.includes(id)) };
      }),
    };
  }

  /**
   * Charts of one dashboard computed for a filter state, access decided by the caller (the
   * dashboard and chart routes above; pictures of a dashboard): a few at a time, never saved.
   */
  async runCharts(project: ProjectRef, charts: readonly Chart[], input: FilterRunRequest, failures: ChartFailure[]): Promise<(FilteredChartView | ChartRunFailureView)[]> {
    const inputs = runInputs(input);
    return mapLimited(charts, this.deps.settings.concurrency, async (chart) => {
      try {
        return await this.run({ chart, project }, inputs);
      } catch (error) {
        failures.push({ chartId: chart.id, error });
        return failureOf(chart.id, error);
      }
    });
  }

  private async run(loaded: LoadedChart, inputs: { filters: RuntimeFilter[]; variables: Record<string, unknown> }): Promise<FilteredChartView> {
    const { chart } = loaded;
    if (chart.type === 'markdown' || chart.ChartDatasetConfigs.length === 0) return { ...chart, variablesWithoutValue: [], filteredBy: [] };
    const result = await this.deps.chartRuns.compute(loaded, { ...inputs, persist: false, getCache: true });
    return answer(chart, result);
  }
}

/** A member's state: any filter and variable (the role table allows runs with runtime inputs). */
function runInputs(input: FilterRunRequest): { filters: RuntimeFilter[]; variables: Record<string, unknown> } {
  return { filters: parseFilters(input.filters, 'body.filters'), variables: parseRuntimeVariables(input.variables, 'body.variables') };
}

function answer(chart: Chart, result: ChartRunResult): FilteredChartView {
  return { ...chart, chartData: result.chartData, chartDataUpdated: result.chartDataUpdated, variablesWithoutValue: result.variablesWithoutValue, filteredBy: result.filteredBy, cacheStatus: result.cache };
}

function notOnDashboard(index: number): never {
  throw ValidationError.field(`body.chartIds.${index}`, 'is not a chart of this dashboard');
}

/** A failed chart of a batch: typed errors keep their code and message, anything else is generic (the route logs it). */
function failureOf(chartId: number, error: unknown): ChartRunFailureView {
  if (error instanceof AppError) return { id: chartId, error: { code: error.code, message: error.message } };
  return { id: chartId, error: { code: 'INTERNAL_ERROR', message: 'This chart could not be computed (see the server log)' } };
}
