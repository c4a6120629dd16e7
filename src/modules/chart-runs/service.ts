import {
  aggregateSeries,
  assembleChartData,
  computeChartData,
  createEngineContext,
  planChart,
  type ChartInput,
  type DatasetConfigInput,
  type DatasetInput,
  type RowSource,
} from '../../engine/index.js';
import {
  checkSeriesPushdown,
  describeSql,
  planSeriesPushdown,
  PUSHDOWN_CHART_TYPES,
  PushdownFallbackError,
  resultToSeries,
} from '../../engine/pushdown/index.js';
import { compileSql } from '../../sources/index.js';
import { NotFoundError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import { can } from '../../platform/authorization.js';
import { cacheKey, type CacheStatus, type ResultCache } from '../../runtime/cache/index.js';
import { stableHash } from '../../runtime/cache/cache-key.js';
import type { Row, RunMeta } from '../../sources/index.js';
import type { Chart, ChartDatasetConfig } from '../charts/repository.js';
import type { ChartsService } from '../charts/service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/repository.js';
import type { ProjectsRepository } from '../projects/repository.js';
import type { DatasetRows, DatasetRunner } from '../runs/dataset-runner.js';
import { filtersToConditions, type RuntimeFilter } from '../runs/filters.js';

export interface ChartRunInputs {
  /** Runtime variables (request body, share params): used for this answer only. */
  variables?: Record<string, unknown>;
  filters?: RuntimeFilter[];
  /** Save chartData and chartDataUpdated on the chart. Never with runtime inputs. */
  persist: boolean;
  /** Answer from the result cache when it holds this exact run. */
  getCache?: boolean;
  /** Compute from the sources and write the answer into the result cache (scheduled refreshes). */
  refreshCache?: boolean;
}

export interface ChartRunResult {
  chartData: unknown;
  chartDataUpdated: string | null;
  cache: CacheStatus | 'bypass';
  /** How each dataset configuration was computed (empty when served from the cache). */
  paths: ('pushdown' | 'stream')[];
  /** Rows the sources answered with (grouped rows for pushdown); 0 when served from the cache. */
  rowsRead: number;
}

/** Told about every refresh that persists a chart's data from a request (run history, alerts). */
export interface ManualRefreshObserver {
  manualRefresh(event: {
    teamId: number;
    projectId: number;
    chartId: number;
    durationMs: number;
    result?: ChartRunResult;
    error?: unknown;
  }): Promise<void>;
}

/** What a limit cut: the chart was computed from the first `rowLimit` rows only. */
export interface Truncation {
  truncated: true;
  rowLimit: number;
}

interface Computed {
  chartData: unknown;
  paths: ChartRunResult['paths'];
  truncation: Truncation | undefined;
  rowsRead: number;
}

/**
 * Splits one iteration of batches into `n` iterables. Each holds the batches it has not consumed
 * yet; one that stops early is dropped from the fan-out. An error reaches every consumer.
 */
export function teeBatches(source: AsyncIterable<Row[]>, n: number): AsyncIterable<Row[]>[] {
  const iterator = source[Symbol.asyncIterator]();
  const queues: (Row[][] | null)[] = Array.from({ length: n }, () => []);
  let pulling: Promise<void> | undefined;
  let done = false;
  const pull = (): Promise<void> =>
    (pulling ??= iterator.next().then(
      (result) => {
        pulling = undefined;
        if (result.done) done = true;
        else for (const queue of queues) queue?.push(result.value);
      },
      (error: unknown) => {
        pulling = undefined;
        throw error;
      },
    ));
  return queues.map((_, index) => ({
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const queue = queues[index]!;
          if (queue.length > 0) {
            yield queue.shift()!;
            continue;
          }
          if (done) return;
          await pull();
        }
      } finally {
        queues[index] = null;
      }
    },
  }));
}

/**
 * A chart computed from a cut run says so in its chartData (saved with it, shown on report
 * pages): `truncated: true` and the `rowLimit` that cut it.
 */
function markTruncated(chartData: unknown, truncation: Truncation | undefined): unknown {
  if (!truncation || chartData === null || typeof chartData !== 'object' || Array.isArray(chartData)) return chartData;
  return { ...chartData, truncated: true, rowLimit: truncation.rowLimit };
}

function worstTruncation(metas: readonly RunMeta[], fallbackLimit: number): Truncation | undefined {
  const cut = metas.filter((meta) => meta.truncated);
  if (cut.length === 0) return undefined;
  return { truncated: true, rowLimit: Math.min(...cut.map((meta) => meta.rowLimit ?? fallbackLimit)) };
}

/** The CDC value wins; the dataset's legacy binding fields are the fallback. */
function effectiveConfig(config: ChartDatasetConfig, dataset: DatasetRecord): DatasetConfigInput {
  const pick = <T>(own: T | null | undefined, fallback: T | null | undefined): T | null => (own ?? fallback ?? null) as T | null;
  const variables = config.configuration['variables'];
  return {
    id: config.id,
    legend: pick(config.legend, dataset.legend ?? dataset.name),
    xAxis: pick(config.xAxis, dataset.xAxis),
    xAxisOperation: pick(config.xAxisOperation, dataset.xAxisOperation),
    yAxis: pick(config.yAxis, dataset.yAxis),
    yAxisOperation: pick(config.yAxisOperation, dataset.yAxisOperation),
    dateField: pick(config.dateField, dataset.dateField),
    dateFormat: pick(config.dateFormat, dataset.dateFormat),
    conditions: (config.conditions.length > 0 ? config.conditions : dataset.conditions) as DatasetConfigInput['conditions'],
    formula: config.formula,
    sort: config.sort,
    maxRecords: config.maxRecords,
    goal: config.goal,
    datasetColor: pick(config.datasetColor, dataset.datasetColor),
    fillColor: config.fillColor as DatasetConfigInput['fillColor'],
    fill: config.fill,
    multiFill: config.multiFill,
    pointRadius: config.pointRadius,
    excludedFields: config.excludedFields.length > 0 ? config.excludedFields : dataset.excludedFields,
    columnsOrder: config.columnsOrder,
    configuration: { ...config.configuration, variables: Array.isArray(variables) ? (variables as { name: string; value: unknown }[]) : [] },
  };
}

function chartInput(chart: Chart, timezone: string | null): ChartInput {
  return {
    type: chart.type ?? 'line',
    subType: chart.subType,
    timeInterval: chart.timeInterval,
    startDate: chart.startDate,
    endDate: chart.endDate,
    currentEndDate: chart.currentEndDate,
    fixedStartDate: chart.fixedStartDate,
    includeZeros: chart.includeZeros,
    showGrowth: chart.showGrowth,
    invertGrowth: chart.invertGrowth,
    timezone: timezone ?? 'UTC',
    content: chart.content,
    ranges: Array.isArray(chart.ranges) ? (chart.ranges as ChartInput['ranges']) : null,
    displayLegend: chart.displayLegend,
    pointRadius: chart.pointRadius,
    stacked: chart.stacked,
    horizontal: chart.horizontal,
    minValue: chart.minValue,
    maxValue: chart.maxValue,
    isLogarithmic: chart.isLogarithmic,
  };
}

/**
 * Computes a chart's data on the server: each configuration's dataset runs once (shared by the
 * configurations that bind it with the same variables), rows stream into the engine, and the
 * result is saved only for a plain run by a role that may persist.
 */
export class ChartRunService {
  constructor(
    private readonly charts: ChartsService,
    private readonly projects: ProjectsRepository,
    private readonly datasets: DatasetsRepository,
    private readonly runner: DatasetRunner,
    private readonly cache: ResultCache,
    private readonly settings: { cacheTtlMs: number; cacheStaleMs: number; pushdown: boolean; chartRowLimit: number; rowLimit: number },
  ) {}

  /** Identical chart runs in flight in this process share one computation (with or without getCache). */
  readonly #inFlight = new Map<string, Promise<Omit<ChartRunResult, 'cache'>>>();

  private observer: ManualRefreshObserver | undefined;

  /** Set once by the container: the refresh service records manual runs (it also needs this service). */
  observe(observer: ManualRefreshObserver): void {
    this.observer = observer;
  }

  /** `POST /project/{pid}/chart/{id}/query`: the chart with fresh chartData. */
  async query(actor: Actor, projectId: number, chartId: number, inputs: Omit<ChartRunInputs, 'persist'> & { noSource?: boolean }): Promise<Chart> {
    const { membership, project } = await this.charts.authorize(actor, projectId, chartId, 'chart:query');
    if (inputs.noSource) return this.charts.get(actor, projectId, chartId);
    const runtime = Object.keys(inputs.variables ?? {}).length > 0 || (inputs.filters ?? []).length > 0;
    const persist = can(membership, 'chart:persist') && !runtime;
    const result = persist
      ? await this.observed(project.team_id, projectId, chartId, () => this.compute(project.team_id, chartId, { ...inputs, persist }))
      : await this.compute(project.team_id, chartId, { ...inputs, persist });
    const chart = await this.charts.get(actor, projectId, chartId);
    return persist ? chart : { ...chart, chartData: result.chartData, chartDataUpdated: result.chartDataUpdated };
  }

  private async observed(teamId: number, projectId: number, chartId: number, run: () => Promise<ChartRunResult>): Promise<ChartRunResult> {
    const started = performance.now();
    const base = { teamId, projectId, chartId };
    try {
      const result = await run();
      await this.observer?.manualRefresh({ ...base, durationMs: performance.now() - started, result });
      return result;
    } catch (error) {
      await this.observer?.manualRefresh({ ...base, durationMs: performance.now() - started, error }).catch(() => undefined);
      throw error;
    }
  }

  async compute(teamId: number, chartId: number, inputs: ChartRunInputs): Promise<ChartRunResult> {
    const chart = await this.charts.loadForRun(teamId, chartId);
    if (!chart) throw new NotFoundError('Chart');
    const project = await this.projects.findById(teamId, chart.project_id);
    const timezone = project?.timezone ?? null;
    const datasets = new Map<number, DatasetRecord>();
    for (const id of new Set(chart.ChartDatasetConfigs.map((c) => c.dataset_id))) {
      const dataset = await this.datasets.find(teamId, id);
      if (dataset) datasets.set(id, dataset);
    }
    // Runtime filters become conditions of every configuration, so both paths apply them alike.
    const configs = chart.ChartDatasetConfigs.filter((c) => datasets.has(c.dataset_id)).map((c) => {
      const config = effectiveConfig(c, datasets.get(c.dataset_id)!);
      const extra = filtersToConditions(inputs.filters ?? [], config.dateField ?? null);
      return { raw: c, config: extra.length > 0 ? { ...config, conditions: [...(config.conditions ?? []), ...extra] } : config };
    });

    const key = cacheKey('chart', {
      chartId,
      chartUpdatedAt: chart.updatedAt,
      configs: chart.ChartDatasetConfigs.map((c) => c.updatedAt),
      datasets: [...datasets.values()].map((d) => [d.id, d.version]),
      timezone,
      variables: inputs.variables ?? {},
      filters: inputs.filters ?? [],
      // A rolling window moves with the clock: key it by the current bucket day.
      day: chart.currentEndDate ? new Date().toISOString().slice(0, 10) : null,
    });
    let paths: ChartRunResult['paths'] = [];
    let rowsRead = 0;
    const run = async (): Promise<unknown> => {
      const computed = await this.computeNow(teamId, chart, timezone, configs, datasets, inputs);
      paths = computed.paths;
      rowsRead = computed.rowsRead;
      return markTruncated(computed.chartData, computed.truncation);
    };
    if (inputs.getCache || inputs.refreshCache) {
      const cached = await this.cache.getOrCompute(key, run, {
        ttlMs: this.settings.cacheTtlMs,
        staleMs: this.settings.cacheStaleMs,
        ...(inputs.refreshCache ? { refresh: true } : {}),
      });
      let chartDataUpdated = chart.chartDataUpdated;
      if (inputs.persist) {
        chartDataUpdated = new Date().toISOString();
        await this.charts.saveChartData(chart.project_id, chart.id, cached.value, chartDataUpdated);
      }
      return { chartData: cached.value, chartDataUpdated, cache: cached.status, paths, rowsRead };
    }
    // Without the cache, concurrent identical runs still share one computation (and one save).
    const flightKey = `${key}:${inputs.persist ? 'persist' : 'answer'}`;
    let shared = this.#inFlight.get(flightKey);
    if (!shared) {
      shared = (async () => {
        const chartData = await run();
        let chartDataUpdated = chart.chartDataUpdated;
        if (inputs.persist) {
          chartDataUpdated = new Date().toISOString();
          await this.charts.saveChartData(chart.project_id, chart.id, chartData, chartDataUpdated);
        }
        return { chartData, chartDataUpdated, paths, rowsRead };
      })().finally(() => this.#inFlight.delete(flightKey));
      this.#inFlight.set(flightKey, shared);
    }
    const result = await shared;
    return { ...result, cache: 'bypass' };
  }

  private async computeNow(
    teamId: number,
    chart: Chart,
    timezone: string | null,
    configs: { raw: ChartDatasetConfig; config: DatasetConfigInput }[],
    datasets: Map<number, DatasetRecord>,
    inputs: ChartRunInputs,
  ): Promise<Computed> {
    const input = chartInput(chart, timezone);
    const runInputs = { variables: inputs.variables ?? {}, timezone: timezone ?? 'UTC' };
    const pushable = this.settings.pushdown && (PUSHDOWN_CHART_TYPES as ReadonlySet<string>).has(input.type);
    const counter = { rows: 0 };
    if (!pushable) {
      const { chartData, truncation } = await this.streamAll(teamId, input, configs, datasets, runInputs, counter);
      return { chartData, paths: configs.map(() => 'stream'), truncation, rowsRead: counter.rows };
    }

    // The database groups and aggregates where it can give exactly the engine's answer.
    const ctx = createEngineContext(input);
    const plans = planChart(ctx, configs.map((c) => c.config));
    const series = new Array<Awaited<ReturnType<typeof aggregateSeries>>>(configs.length);
    const paths: ChartRunResult['paths'] = configs.map(() => 'stream');
    for (const [index, { raw, config }] of configs.entries()) {
      const configured = { ...runInputs, configured: config.configuration?.variables ?? [] };
      const target = await this.runner.sqlTarget(teamId, datasets.get(raw.dataset_id)!, configured);
      if (!target) continue;
      const describe = describeSql(target.query, target.dialect);
      if (!describe) continue;
      const columns = await target.columns(describe);
      const query = compileSql(target.query, target.dialect, target.variables);
      if (!checkSeriesPushdown(ctx, plans, index, target.dialect, { columns, query }).ok) continue;
      const plan = planSeriesPushdown(ctx, plans, index, query, target.dialect, columns);
      const result = await target.run({ text: plan.sql, values: plan.params });
      if (result.meta.truncated || !Array.isArray(result.data)) continue;
      counter.rows += result.data.length;
      try {
        series[index] = resultToSeries(plan, result.data as Row[]);
        paths[index] = 'pushdown';
      } catch (error) {
        if (!(error instanceof PushdownFallbackError)) throw error;
      }
    }

    // The rest stream through the engine, one run per dataset and set of configured variables.
    const rest = configs.map((c, i) => ({ ...c, index: i })).filter((c) => paths[c.index] === 'stream');
    const truncation = await this.withRows(teamId, rest, datasets, runInputs, this.aggregationRowLimit(), async (sources) => {
      await Promise.all(rest.map((c, k) => aggregateSeries(ctx, plans[c.index]!, sources[k]!).then((s) => (series[c.index] = s))));
    }, counter);
    return { chartData: assembleChartData(ctx, plans, series), paths, truncation, rowsRead: counter.rows };
  }

  /**
   * Aggregation holds groups, not rows, so it reads every row up to PLOTLINE_CHART_ROW_LIMIT
   * (0 = no limit) rather than the much lower row limit of a collected run.
   */
  private aggregationRowLimit(): number {
    return this.settings.chartRowLimit === 0 ? Number.MAX_SAFE_INTEGER : this.settings.chartRowLimit;
  }

  private async streamAll(
    teamId: number,
    input: ChartInput,
    configs: { raw: ChartDatasetConfig; config: DatasetConfigInput }[],
    datasets: Map<number, DatasetRecord>,
    runInputs: { variables: Record<string, unknown>; timezone: string },
    counter: { rows: number },
  ): Promise<{ chartData: unknown; truncation: Truncation | undefined }> {
    let chartData: unknown;
    // A table shows its rows, so it holds them: the row limit of a run applies. Other types aggregate.
    const rowLimit = input.type === 'table' ? this.settings.rowLimit : this.aggregationRowLimit();
    const truncation = await this.withRows(teamId, configs, datasets, runInputs, rowLimit, async (sources) => {
      const datasetInputs: DatasetInput[] = configs.map(({ config }, i) => ({ config, rows: sources[i]! }));
      chartData = await computeChartData(input, datasetInputs);
    }, counter);
    return { chartData, truncation };
  }

  /**
   * Opens one run per dataset (and set of configured variables) for the given configurations and
   * hands out a row source per configuration; runs bound by several configurations are held once.
   * Every run is closed afterwards, also on failure. Returns what a limit cut, if anything.
   */
  private async withRows(
    teamId: number,
    configs: { raw: ChartDatasetConfig; config: DatasetConfigInput }[],
    datasets: Map<number, DatasetRecord>,
    runInputs: { variables: Record<string, unknown>; timezone: string },
    rowLimit: number,
    use: (sources: RowSource[]) => Promise<void>,
    counter: { rows: number },
  ): Promise<Truncation | undefined> {
    const groups = new Map<string, { dataset: DatasetRecord; configured: unknown; members: number[] }>();
    configs.forEach(({ raw, config }, index) => {
      const configured = config.configuration?.variables ?? [];
      const key = `${raw.dataset_id}:${stableHash(configured)}`;
      const group = groups.get(key) ?? { dataset: datasets.get(raw.dataset_id)!, configured, members: [] };
      group.members.push(index);
      groups.set(key, group);
    });
    const opened: DatasetRows[] = [];
    const sources = new Array<RowSource>(configs.length);
    try {
      for (const group of groups.values()) {
        const rows = await this.runner.stream(
          teamId,
          group.dataset,
          { ...runInputs, configured: group.configured as { name: string; value: unknown }[] },
          { rowLimit },
        );
        opened.push(rows);
        if (group.members.length === 1) {
          sources[group.members[0]!] = { batches: rows };
        } else {
          // One read of the run feeds every configuration that binds it; they aggregate side by
          // side, so only the batches not yet seen by the slowest are held, never the whole run.
          const copies = teeBatches(rows, group.members.length);
          group.members.forEach((member, k) => (sources[member] = { batches: copies[k]! }));
        }
      }
      await use(sources);
      for (const rows of opened) counter.rows += rows.meta().rowCount;
      return worstTruncation(
        opened.map((rows) => rows.meta()),
        rowLimit,
      );
    } finally {
      await Promise.all(opened.map((rows) => rows.close().catch(() => undefined)));
    }
  }

  // ---- unsaved charts (previews): the engine path of `compute`, without the cache or a save ----

  /**
   * chartData of a chart that is not stored (built by `ChartsService.draft`, which checked access
   * and every dataset). Nothing is cached or saved; runtime inputs apply to this answer only.
   */
  async computeUnsaved(
    teamId: number,
    chart: Chart,
    timezone: string | null,
    inputs: { variables?: Record<string, unknown>; filters?: RuntimeFilter[] },
  ): Promise<{ chartData: unknown; truncation: Truncation | undefined; paths: ChartRunResult['paths'] }> {
    const datasets = new Map<number, DatasetRecord>();
    for (const id of new Set(chart.ChartDatasetConfigs.map((c) => c.dataset_id))) {
      const dataset = await this.datasets.find(teamId, id);
      if (dataset) datasets.set(id, dataset);
    }
    const configs = chart.ChartDatasetConfigs.filter((c) => datasets.has(c.dataset_id)).map((c) => {
      const config = effectiveConfig(c, datasets.get(c.dataset_id)!);
      const extra = filtersToConditions(inputs.filters ?? [], config.dateField ?? null);
      return { raw: c, config: extra.length > 0 ? { ...config, conditions: [...(config.conditions ?? []), ...extra] } : config };
    });
    const computed = await this.computeNow(teamId, chart, timezone, configs, datasets, { ...inputs, persist: false });
    return { chartData: markTruncated(computed.chartData, computed.truncation), truncation: computed.truncation, paths: computed.paths };
  }
}
