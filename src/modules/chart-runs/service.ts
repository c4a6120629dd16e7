import { computeChartData, type ChartInput, type DatasetConfigInput, type DatasetInput, type RowSource } from '../../engine/index.js';
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
import type { RuntimeFilter } from '../runs/filters.js';

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
    private readonly settings: { cacheTtlMs: number; cacheStaleMs: number },
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
    const configs = chart.ChartDatasetConfigs.filter((c) => datasets.has(c.dataset_id)).map((c) => ({ raw: c, config: effectiveConfig(c, datasets.get(c.dataset_id)!) }));

    const run = async (): Promise<unknown> => this.computeNow(teamId, chart, timezone, configs, datasets, inputs);
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
    return { chartData, chartDataUpdated, cache: status };
  }

  private async computeNow(
    teamId: number,
    chart: Chart,
    timezone: string | null,
    configs: { raw: ChartDatasetConfig; config: DatasetConfigInput }[],
    datasets: Map<number, DatasetRecord>,
    inputs: ChartRunInputs,
  ): Promise<unknown> {
    // One run per dataset and set of configured variables; shared runs are held once in memory.
    const groups = new Map<string, { dataset: DatasetRecord; configured: unknown; members: number[] }>();
    configs.forEach(({ raw, config }, index) => {
      const configured = config.configuration?.variables ?? [];
      const key = `${raw.dataset_id}:${stableHash(configured)}:${config.dateField ?? ''}`;
      const group = groups.get(key) ?? { dataset: datasets.get(raw.dataset_id)!, configured, members: [] };
      group.members.push(index);
      groups.set(key, group);
    });
    const opened: DatasetRows[] = [];
    const sources = new Array<RowSource>(configs.length);
    try {
      for (const group of groups.values()) {
        const dateField = configs[group.members[0]!]!.config.dateField ?? group.dataset.dateField;
        const rows = await this.runner.stream(teamId, { ...group.dataset, dateField: stripRoot(dateField) }, {
          variables: inputs.variables ?? {},
          configured: group.configured as { name: string; value: unknown }[],
          filters: inputs.filters ?? [],
          timezone: timezone ?? 'UTC',
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
      const input: DatasetInput[] = configs.map(({ config }, i) => ({ config, rows: sources[i]! }));
      return await computeChartData(chartInput(chart, timezone), input);
    } finally {
      await Promise.all(opened.map((rows) => rows.close().catch(() => undefined)));
    }
  }
}

/** Runtime date filters read top-level columns: `root[].created_at` → `created_at`. */
function stripRoot(path: string | null): string | null {
  return path === null ? null : path.replace(/^root\[\]\./, '');
}
