import type { Logger } from 'pino';
import { AppError, NotFoundError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import type { RefreshMetrics } from '../../runtime/scheduler/metrics.js';
import type { Delivery, RefreshJob } from '../../runtime/scheduler/dispatch.js';
import { can } from '../../platform/authorization.js';
import type { Db } from '../../store/index.js';
import type { Chart, ChartRunInputs, ChartRunResult, ChartRunService, ChartsService, LoadedChart, ProjectsService } from '../dashboards/index.js';
import type { ChartRunEntry, RefreshRepository, RefreshRun, RefreshStatus, RefreshTrigger } from './refreshes-repository.js';
import { mapLimited } from '../../runtime/map-limited.js';

/** Checks a chart's alerts against fresh data (the alerts service implements it). */
export interface AlertChecker {
  check(input: { teamId: number; projectId: number; chartId: number; chartData: unknown; runId: number }): Promise<void>;
}

export interface RefreshSettings {
  /** Charts of one dashboard refreshed at the same time. */
  chartConcurrency: number;
  clock: () => Date;
}

const MAX_ERROR_MESSAGE = 500;

/** Code and message of a failure for the history: typed errors keep theirs, anything else is generic. */
function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof AppError) return { code: error.code, message: error.message.slice(0, MAX_ERROR_MESSAGE) };
  return { code: 'INTERNAL_ERROR', message: 'The refresh failed with an internal error (see the server log)' };
}

export interface RefreshDeps {
  history: RefreshRepository;
  charts: ChartsService;
  projects: ProjectsService;
  chartRuns: ChartRunService;
  alerts?: AlertChecker;
  metrics: RefreshMetrics;
  settings: RefreshSettings;
  logger: Logger;
}

/**
 * Refreshes through the chart-run path (the same one as `POST …/query`): persisted chartData,
 * pushdown, the result cache rewritten. Records every refresh, manual or scheduled, and checks
 * alerts after each chart. A failing chart does not stop its dashboard's other charts.
 */
export class RefreshService {
  constructor(private readonly deps: RefreshDeps) {}

  /**
   * The dispatcher's executor. A job runs only if it takes its claim (`enqueued` -> `running`,
   * which moves `lastUpdatedAt` / `lastAutoUpdate`): a second copy of a job handed over again
   * after it was thought lost finds the claim taken and does nothing. The claim ends `done`, or
   * `failed` when the refresh could not run to its end.
   */
  run = async (job: RefreshJob, delivery: Delivery = { resumed: false }): Promise<void> => {
    const claim = job.period === undefined ? undefined : { kind: job.kind, id: job.id, period: job.period };
    const at = this.deps.settings.clock().toISOString();
    const started = (trx: Db) => (job.kind === 'dashboard' ? this.deps.projects.markRefreshed(job.id, at, trx) : this.deps.charts.markAutoUpdated(job.id, at, trx));
    if (claim && !(await this.deps.history.start(claim, at, delivery.resumed, started))) {
      this.deps.logger.info({ kind: job.kind, id: job.id, period: job.period }, 'refresh not run: its claim was taken by another copy of the job');
      return;
    }
    let outcome: 'done' | 'failed' = 'failed';
    try {
      if (job.kind === 'dashboard') await this.refreshDashboard(job.teamId, job.id, 'schedule');
      else await this.refreshChart(job.teamId, job.id, 'auto');
      outcome = 'done';
    } finally {
      if (claim) await this.deps.history.finish(claim, outcome).catch((err: unknown) => this.deps.logger.error({ err, ...claim }, 'could not record the end of a refresh claim'));
    }
  };

  async refreshDashboard(teamId: number, projectId: number, trigger: RefreshTrigger): Promise<RefreshRun | undefined> {
    const dashboard = await this.deps.projects.loadDashboard(teamId, projectId);
    if (!dashboard) return undefined;
    const started = this.deps.settings.clock();
    const t0 = performance.now();
    const charts = dashboard.Charts.filter((chart) => chart.type !== 'markdown');
    const project = { id: dashboard.id, team_id: teamId, timezone: dashboard.timezone };
    const outcomes = await mapLimited(charts, this.deps.settings.chartConcurrency, (chart) => this.runChart({ chart, project }));
    const entries = outcomes.map((o) => o.entry);
    const failed = entries.filter((e) => e.status === 'failure').length;
    const status: RefreshStatus = failed === 0 ? 'success' : failed === entries.length ? 'failure' : 'partial_failure';
    const run = await this.record({ teamId, projectId, chartId: null, trigger, status, started, durationMs: performance.now() - t0, entries, error: null });
    await this.checkAlerts(teamId, projectId, outcomes, run.id);
    return run;
  }

  async refreshChart(teamId: number, chartId: number, trigger: RefreshTrigger): Promise<RefreshRun | undefined> {
    const loaded = await this.deps.charts.loadForRun(teamId, chartId);
    if (!loaded || loaded.chart.type === 'markdown') return undefined;
    const { chart } = loaded;
    const started = this.deps.settings.clock();
    const t0 = performance.now();
    const outcome = await this.runChart(loaded);
    const status: RefreshStatus = outcome.entry.status === 'success' ? 'success' : 'failure';
    const run = await this.record({ teamId, projectId: chart.project_id, chartId, trigger, status, started, durationMs: performance.now() - t0, entries: [outcome.entry], error: outcome.entry.error });
    await this.checkAlerts(teamId, chart.project_id, [outcome], run.id);
    return run;
  }

  /** A `POST …/query` that persisted (or failed to): recorded as a manual refresh, then alerts. */
  /**
   * `POST /project/{pid}/chart/{id}/query`: the chart with fresh chartData. When the caller may save
   * it and the run has no runtime filters or variables, it is a manual refresh: the data is saved,
   * the run recorded in the history (failed runs too) and the chart's alerts checked.
   */
  async queryChart(
    actor: Actor,
    projectId: number,
    chartId: number,
    inputs: Omit<ChartRunInputs, 'persist'> & { noSource?: boolean },
  ): Promise<Chart & { variablesWithoutValue: string[] }> {
    const { membership, project, chart } = await this.deps.charts.authorize(actor, projectId, chartId, 'chart:query');
    if (inputs.noSource) return { ...chart, variablesWithoutValue: [] };
    const loaded = { chart, project };
    const runtime = Object.keys(inputs.variables ?? {}).length > 0 || (inputs.filters ?? []).length > 0;
    const result = can(membership, 'chart:persist') && !runtime
      ? await this.manualRefresh(loaded, inputs)
      : await this.deps.chartRuns.compute(loaded, { ...inputs, persist: false });
    return { ...chart, chartData: result.chartData, chartDataUpdated: result.chartDataUpdated, variablesWithoutValue: result.variablesWithoutValue };
  }

  private async manualRefresh(loaded: LoadedChart, inputs: Omit<ChartRunInputs, 'persist'>): Promise<ChartRunResult> {
    const started = performance.now();
    try {
      const result = await this.deps.chartRuns.compute(loaded, { ...inputs, persist: true });
      await this.recordManual(loaded, performance.now() - started, { result });
      return result;
    } catch (error) {
      await this.recordManual(loaded, performance.now() - started, { error });
      throw error;
    }
  }

  /** History must never turn a good answer into an error: a failure to record is logged, not thrown. */
  private async recordManual({ chart, project }: LoadedChart, durationMs: number, outcome: { result: ChartRunResult } | { error: unknown }): Promise<void> {
    const entry = 'result' in outcome ? successEntry(chart.id, outcome.result, durationMs) : failureEntry(chart.id, outcome.error, durationMs);
    if (entry.status === 'failure') await this.markFailed({ chart, project }, entry);
    try {
      const run = await this.record({
        teamId: project.team_id,
        projectId: project.id,
        chartId: chart.id,
        trigger: 'manual',
        status: entry.status === 'success' ? 'success' : 'failure',
        started: new Date(this.deps.settings.clock().getTime() - durationMs),
        durationMs,
        entries: [entry],
        error: entry.error,
      });
      if ('result' in outcome) await this.checkAlerts(project.team_id, project.id, [{ entry, chartData: outcome.result.chartData }], run.id);
    } catch (err) {
      this.deps.logger.error({ err, chartId: chart.id }, 'could not record a manual refresh');
    }
  }

  /**
   * *Refresh all*: every chart of the dashboard computed and saved now, a few at a time
   * (PLOTLINE_REFRESH_CONCURRENCY), as one manual run in the history with each chart's outcome; a
   * chart that fails keeps its last good data and its failure, and the others go on.
   */
  async refreshProject(actor: Actor, projectId: number): Promise<RefreshRun> {
    const { project } = await this.deps.projects.authorize(actor, projectId, 'chart:persist');
    const run = await this.refreshDashboard(project.team_id, projectId, 'manual');
    if (!run) throw new NotFoundError('Project');
    return run;
  }

  async listProjectRuns(actor: Actor, projectId: number, page: { limit: number; offset: number }) {
    await this.deps.projects.authorize(actor, projectId, 'project:read');
    return { ...(await this.deps.history.listByProject(projectId, page)), ...page };
  }

  async listChartRuns(actor: Actor, projectId: number, chartId: number, page: { limit: number; offset: number }) {
    await this.deps.charts.authorize(actor, projectId, chartId, 'chart:read');
    return { ...(await this.deps.history.listByChart(projectId, chartId, page)), ...page };
  }

  private async runChart(loaded: LoadedChart): Promise<{ entry: ChartRunEntry; chartData?: unknown }> {
    const chartId = loaded.chart.id;
    const t0 = performance.now();
    try {
      const result = await this.deps.chartRuns.compute(loaded, { persist: true, refreshCache: true });
      return { entry: successEntry(chartId, result, performance.now() - t0), chartData: result.chartData };
    } catch (error) {
      if (!(error instanceof AppError)) this.deps.logger.error({ err: error, chartId }, 'chart refresh failed');
      const entry = failureEntry(chartId, error, performance.now() - t0);
      await this.markFailed(loaded, entry);
      return { entry };
    }
  }

  /** The chart keeps the failure of its latest refresh (`lastError`) beside its last good data; a good refresh clears it. */
  private async markFailed({ chart }: LoadedChart, entry: ChartRunEntry): Promise<void> {
    if (!entry.error) return;
    const lastError = { ...entry.error, at: this.deps.settings.clock().toISOString() };
    await this.deps.charts.saveLastError(chart.project_id, chart.id, lastError).catch((err: unknown) => this.deps.logger.error({ err, chartId: chart.id }, 'could not record a chart refresh failure'));
  }

  private async record(input: {
    teamId: number;
    projectId: number;
    chartId: number | null;
    trigger: RefreshTrigger;
    status: RefreshStatus;
    started: Date;
    durationMs: number;
    entries: ChartRunEntry[];
    error: { code: string; message: string } | null;
  }): Promise<RefreshRun> {
    const run = {
      team_id: input.teamId,
      project_id: input.projectId,
      chart_id: input.chartId,
      trigger: input.trigger,
      status: input.status,
      startedAt: input.started.toISOString(),
      durationMs: Math.round(input.durationMs),
      error: input.error,
      charts: input.entries,
    };
    const id = await this.deps.history.insertRun(run);
    this.deps.metrics.observeRun(input.trigger, input.status, input.durationMs / 1000);
    return { ...run, id };
  }

  private async checkAlerts(teamId: number, projectId: number, outcomes: { entry: ChartRunEntry; chartData?: unknown }[], runId: number): Promise<void> {
    if (!this.deps.alerts) return;
    for (const outcome of outcomes) {
      if (outcome.entry.status !== 'success') continue;
      try {
        await this.deps.alerts.check({ teamId, projectId, chartId: outcome.entry.chart_id, chartData: outcome.chartData, runId });
      } catch (err) {
        this.deps.logger.error({ err, chartId: outcome.entry.chart_id }, 'alert check failed');
      }
    }
  }
}

function successEntry(chartId: number, result: ChartRunResult, durationMs: number): ChartRunEntry {
  return {
    chart_id: chartId,
    status: 'success',
    paths: result.paths,
    rowsRead: result.rowsRead,
    cacheHit: result.cache === 'hit' || result.cache === 'stale',
    durationMs: Math.round(durationMs),
    error: null,
  };
}

function failureEntry(chartId: number, error: unknown, durationMs: number): ChartRunEntry {
  return { chart_id: chartId, status: 'failure', paths: [], rowsRead: 0, cacheHit: false, durationMs: Math.round(durationMs), error: describeError(error) };
}
