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
import type { Row } from '../../sources/index.js';
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
}

export interface ChartRunResult {
  chartData: unknown;
  chartDataUpdated: string | null;
  cache: CacheStatus | 'bypass';
  /** How each dataset configuration was computed (empty when served from the cache). */
  paths: ('pushdown' | 'stream')[];
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
    private readonly settings: { cacheTtlMs: number; cacheStaleMs: number; pushdown: boolean },
  ) {}

  /** `POST /project/{pid}/chart/{id}/query`: the chart with fresh chartData. */
  async query(actor: Actor, projectId: number, chartId: number, inputs: Omit<ChartRunInputs, 'persist'> & { noSource?: boolean }): Promise<Chart> {
    const { membership, project } = await this.charts.authorize(actor, projectId, chartId, 'chart:query');
    if (inputs.noSource) return this.charts.get(actor, projectId, chartId);
    const runtime = Object.keys(inputs.variables ?? {}).length > 0 || (inputs.filters ?? []).length > 0;
    const persist = can(membership, 'chart:persist') && !runtime;
    const result = await this.compute(project.team_id, chartId, { ...inputs, persist });
    const chart = await this.charts.get(actor, projectId, chartId);
    return persist ? chart : { ...chart, chartData: result.chartData, chartDataUpdated: result.chartDataUpdated };
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

    let paths: ChartRunResult['paths'] = [];
    const run = async (): Promise<unknown> => {
      const computed = await this.computeNow(teamId, chart, timezone, configs, datasets, inputs);
      paths = computed.paths;
      return computed.chartData;
    };
    let chartData: unknown;
    let status: ChartRunResult['cache'] = 'bypass';
    if (inputs.getCache) {
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
      const cached = await this.cache.getOrCompute(key, run, { ttlMs: this.settings.cacheTtlMs, staleMs: this.settings.cacheStaleMs });
      chartData = cached.value;
      status = cached.status;
    } else {
      chartData = await run();
    }
    let chartDataUpdated = chart.chartDataUpdated;
    if (inputs.persist) {
      chartDataUpdated = new Date().toISOString();
      await this.charts.saveChartData(chart.project_id, chart.id, chartData, chartDataUpdated);
    }
    return { chartData, chartDataUpdated, cache: status, paths };
  }

  private async computeNow(
    teamId: number,
    chart: Chart,
    timezone: string | null,
    configs: { raw: ChartDatasetConfig; config: DatasetConfigInput }[],
    datasets: Map<number, DatasetRecord>,
    inputs: ChartRunInputs,
  ): Promise<{ chartData: unknown; paths: ChartRunResult['paths'] }> {
    const input = chartInput(chart, timezone);
    const runInputs = { variables: inputs.variables ?? {}, timezone: timezone ?? 'UTC' };
    const pushable = this.settings.pushdown && (PUSHDOWN_CHART_TYPES as ReadonlySet<string>).has(input.type);
    if (!pushable) {
      return { chartData: await this.streamAll(teamId, input, configs, datasets, runInputs), paths: configs.map(() => 'stream') };
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
      try {
        series[index] = resultToSeries(plan, result.data as Row[]);
        paths[index] = 'pushdown';
      } catch (error) {
        if (!(error instanceof PushdownFallbackError)) throw error;
      }
    }

    // The rest stream through the engine, one run per dataset and set of configured variables.
    const rest = configs.map((c, i) => ({ ...c, index: i })).filter((c) => paths[c.index] === 'stream');
    await this.withRows(teamId, rest, datasets, runInputs, async (sources) => {
      await Promise.all(rest.map((c, k) => aggregateSeries(ctx, plans[c.index]!, sources[k]!).then((s) => (series[c.index] = s))));
    });
    return { chartData: assembleChartData(ctx, plans, series), paths };
  }

  private async streamAll(
    teamId: number,
    input: ChartInput,
    configs: { raw: ChartDatasetConfig; config: DatasetConfigInput }[],
    datasets: Map<number, DatasetRecord>,
    runInputs: { variables: Record<string, unknown>; timezone: string },
  ): Promise<unknown> {
    let chartData: unknown;
    await this.withRows(teamId, configs, datasets, runInputs, async (sources) => {
      const datasetInputs: DatasetInput[] = configs.map(({ config }, i) => ({ config, rows: sources[i]! }));
      chartData = await computeChartData(input, datasetInputs);
    });
    return chartData;
  }

  /**
   * Opens one run per dataset (and set of configured variables) for the given configurations and
   * hands out a row source per configuration; runs bound by several configurations are held once.
   * Every run is closed afterwards, also on failure.
   */
  private async withRows(
    teamId: number,
    configs: { raw: ChartDatasetConfig; config: DatasetConfigInput }[],
    datasets: Map<number, DatasetRecord>,
    runInputs: { variables: Record<string, unknown>; timezone: string },
    use: (sources: RowSource[]) => Promise<void>,
  ): Promise<void> {
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
        const rows = await this.runner.stream(teamId, group.dataset, {
          ...runInputs,
          configured: group.configured as { name: string; value: unknown }[],
        });
        opened.push(rows);
        if (group.members.length === 1) {
          sources[group.members[0]!] = { batches: rows };
        } else {
          const all: Row[] = [];
          for await (const batch of rows) for (const row of batch) all.push(row);
          for (const member of group.members) sources[member] = all;
        }
      }
      await use(sources);
    } finally {
      await Promise.all(opened.map((rows) => rows.close().catch(() => undefined)));
    }
  }
}
