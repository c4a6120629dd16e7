import { ByteBudget, computeChart, type ChartInput, type ChartPath, type DatasetConfigInput, type RowSource } from '../../engine/index.js';
import { NotFoundError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import { cacheKey, type CacheStatus, type ResultCache } from '../../runtime/cache/index.js';
import { stableHash } from '../../runtime/cache/cache-key.js';
import { teeBatches } from '../../runtime/tee-batches.js';
import type { Chart, ChartDatasetConfig, ProjectRef } from './charts-repository.js';
import { markTruncated, worstOf, worstTruncation, type Truncation } from './chart-truncation.js';
import type { ChartsService } from './charts-service.js';
import { displayOf } from './chart-display.js';
import { filtersForChart, filtersReaching, filtersToConditions, type DatasetRecord, type DatasetRows, type DatasetRunner, type DatasetsService, type FilterTarget, type PreparedDataset, type RowFilter, type RuntimeFilter } from '../data/index.js';

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
  paths: ChartPath[];
  /** Rows the sources answered with (grouped rows for pushdown); 0 when served from the cache. */
  rowsRead: number;
  /** Bound variables of the chart's datasets that this run leaves without a value, sorted. */
  variablesWithoutValue: string[];
  /** Ids of the run's filters that narrow this chart (`filtersReaching`), in the state's order. */
  filteredBy: string[];
}

/** A chart loaded for a run, with what the run needs of its dashboard. */
export interface LoadedChart {
  chart: Chart;
  project: ProjectRef;
}

export interface ChartRunSettings {
  cacheTtlMs: number;
  cacheStaleMs: number;
  pushdown: boolean;
  /** Rows an aggregating chart may read (0 = no limit). */
  chartRowLimit: number;
  /** Rows a table chart may hold. */
  rowLimit: number;
  /** Bytes a run may hold, and what the chart may hold while it is computed (PLOTLINE_RESULT_MAX_MB). */
  byteLimit: number;
}

export interface ChartRunDeps {
  charts: ChartsService;
  datasets: DatasetsService;
  runner: DatasetRunner;
  cache: ResultCache;
  settings: ChartRunSettings;
}

/** A configuration ready to compute: the saved one, and what the engine gets (dataset fallbacks and runtime filters applied). */
interface Bound {
  raw: ChartDatasetConfig;
  config: DatasetConfigInput;
  dataset: PreparedDataset;
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
    breakdown: config.breakdown,
    breakdownLimit: config.breakdownLimit,
    breakdownOther: config.breakdownOther,
    breakdownOtherLabel: config.breakdownOtherLabel,
    configuration: { ...config.configuration, variables: Array.isArray(variables) ? (variables as { name: string; value: unknown }[]) : [] },
  };
}

function chartInput(chart: Chart, timezone: string | null): ChartInput {
  return {
    // Every display option goes along; the engine's own type names those it reads, and the
    // compiler holds their types to it.
    ...displayOf(chart),
    type: chart.type ?? 'line',
    subType: chart.subType,
    timeInterval: chart.timeInterval,
    startDate: chart.startDate,
    endDate: chart.endDate,
    currentEndDate: chart.currentEndDate,
    fixedStartDate: chart.fixedStartDate,
    includeZeros: chart.includeZeros,
    timezone: timezone ?? 'UTC',
    // Stored as free JSON: the engine takes an array of ranges or nothing.
    ranges: Array.isArray(chart.ranges) ? (chart.ranges as ChartInput['ranges']) : null,
  };
}

/** What a filter may reach of each configuration: its effective date field, and the variables its dataset names. */
function filterTargets(bound: readonly Bound[]): FilterTarget[] {
  const names = new Map<PreparedDataset, ReadonlySet<string>>();
  return bound.map((b) => {
    let variables = names.get(b.dataset);
    if (!variables) names.set(b.dataset, (variables = b.dataset.placeholderNames()));
    return { dateField: b.config.dateField ?? null, variables };
  });
}

/** What each configuration's dataset run leaves without a value, with its saved variables, merged and sorted. */
function unsetVariables(bound: readonly Bound[], variables: Record<string, unknown>): string[] {
  const names = bound.flatMap((b) => b.dataset.variablesWithoutValue({ variables, configured: b.config.configuration?.variables ?? [] }));
  return [...new Set(names)].sort();
}

/**
 * Computes a chart's data on the server, in one straight line: load the chart (authorized once)
 * and what its datasets need (read once), key the answer by everything that changes it, then
 * either serve it from the cache or compute it with the engine (pushdown or streaming, decided
 * there) and save it when the run may persist.
 */
export class ChartRunService {
  constructor(private readonly deps: ChartRunDeps) {}

  /** Identical chart runs in flight in this process share one computation (with or without getCache). */
  readonly #inFlight = new Map<string, Promise<Omit<ChartRunResult, 'cache' | 'variablesWithoutValue' | 'filteredBy'>>>();

  /**
   * A chart of a dashboard with its data computed for the caller, never saved: exports, and runs with
   * runtime inputs. A refresh that saves goes through the refresh service, which records it.
   */
  async answer(actor: Actor, projectId: number, chartId: number, inputs: Omit<ChartRunInputs, 'persist'>): Promise<Chart> {
    const { project, chart } = await this.deps.charts.authorize(actor, projectId, chartId, 'chart:query');
    const result = await this.compute({ chart, project }, { ...inputs, persist: false });
    return { ...chart, chartData: result.chartData, chartDataUpdated: result.chartDataUpdated };
  }

  /** A chart of a team by id, access decided elsewhere (scheduled refreshes). */
  async computeById(teamId: number, chartId: number, inputs: ChartRunInputs): Promise<ChartRunResult> {
    const loaded = await this.deps.charts.loadForRun(teamId, chartId);
    if (!loaded) throw new NotFoundError('Chart');
    return this.compute(loaded, inputs);
  }

  /** A loaded chart's data: from the cache when asked and held, else computed (once for identical concurrent runs), and saved when `persist`. */
  async compute({ chart, project }: LoadedChart, inputs: ChartRunInputs): Promise<ChartRunResult> {
    const timezone = project.timezone ?? 'UTC';
    // The filter state as it applies to this chart, in canonical form: equal states share a key.
    const runtime = filtersForChart(inputs.filters ?? [], chart.id, timezone);
    const variables = { ...inputs.variables, ...runtime.variables };
    const { prepared, bound } = await this.prepareBound(chart, project, runtime.filters);
    const variablesWithoutValue = unsetVariables(bound, variables);
    const filteredBy = filtersReaching(inputs.filters ?? [], chart.id, filterTargets(bound));
    const key = cacheKey('chart', {
      chartId: chart.id,
      chartUpdatedAt: chart.updatedAt,
      configs: chart.ChartDatasetConfigs.map((c) => [c.id, c.updatedAt]),
      datasets: [...prepared.values()].map(({ dataset, parts }) => [
        dataset.id,
        dataset.version,
        parts.requests.map((r) => [r.id, r.updatedAt, r.connection_id === null ? null : (parts.connections.get(r.connection_id)?.updatedAt ?? null)]),
        parts.bindings.map((b) => [b.id, b.updatedAt]),
      ]),
      timezone,
      variables,
      filters: runtime.filters,
      // A rolling window moves with the clock: key it by the current bucket day.
      day: chart.currentEndDate ? new Date().toISOString().slice(0, 10) : null,
    });

    let paths: ChartPath[] = [];
    let rowsRead = 0;
    const calculate = async (): Promise<unknown> => {
      const computed = await this.calculate(chart, timezone, bound, variables);
      paths = computed.paths;
      rowsRead = computed.rowsRead;
      return markTruncated(computed.chartData, computed.truncation);
    };
    // Saved data is of now; data computed for the request (never saved) is of when it was
    // computed: now, or when the result cache computed it (`computedAt`).
    const save = async (chartData: unknown, computedAt: number): Promise<string> => {
      if (!inputs.persist) return new Date(computedAt).toISOString();
      const at = new Date().toISOString();
      await this.deps.charts.saveChartData(chart.project_id, chart.id, chartData, at);
      return at;
    };

    if (inputs.getCache || inputs.refreshCache) {
      const { settings } = this.deps;
      const cached = await this.deps.cache.getOrCompute(key, calculate, {
        ttlMs: settings.cacheTtlMs,
        staleMs: settings.cacheStaleMs,
        ...(inputs.refreshCache ? { refresh: true } : {}),
      });
      return { chartData: cached.value, chartDataUpdated: await save(cached.value, cached.createdAt), cache: cached.status, paths, rowsRead, variablesWithoutValue, filteredBy };
    }
    // Without the cache, concurrent identical runs still share one computation (and one save).
    const flightKey = `${key}:${inputs.persist ? 'persist' : 'answer'}`;
    let shared = this.#inFlight.get(flightKey);
    if (!shared) {
      shared = (async () => {
        const chartData = await calculate();
        return { chartData, chartDataUpdated: await save(chartData, Date.now()), paths, rowsRead };
      })().finally(() => this.#inFlight.delete(flightKey));
      this.#inFlight.set(flightKey, shared);
    }
    return { ...(await shared), cache: 'bypass', variablesWithoutValue, filteredBy };
  }

  /**
   * What filters may reach of each chart (`filterTargets`), as a run binds it, with no source
   * queried: the datasets of all the charts are read once. Access decided by the caller.
   */
  async filterTargetsOf(project: ProjectRef, charts: readonly Chart[]): Promise<Map<number, FilterTarget[]>> {
    const datasets = await this.deps.datasets.loadForChart(
      project.team_id,
      charts.flatMap((chart) => chart.ChartDatasetConfigs.map((c) => c.dataset_id)),
    );
    const prepared = await this.deps.runner.prepare(project.team_id, [...datasets.values()]);
    return new Map(charts.map((chart) => [chart.id, filterTargets(this.bind(chart, prepared, [], project.timezone ?? 'UTC'))]));
  }

  /** Reads what the chart's datasets need (once) and binds each configuration to its prepared dataset. */
  private async prepareBound(chart: Chart, project: ProjectRef, filters: readonly RowFilter[]): Promise<{ prepared: Map<number, PreparedDataset>; bound: Bound[] }> {
    const datasets = await this.deps.datasets.loadForChart(
      project.team_id,
      chart.ChartDatasetConfigs.map((c) => c.dataset_id),
    );
    const prepared = await this.deps.runner.prepare(project.team_id, [...datasets.values()]);
    return { prepared, bound: this.bind(chart, prepared, filters, project.timezone ?? 'UTC') };
  }

  /** The configurations whose dataset still exists, with the dataset's fallbacks and the runtime filters as conditions. */
  private bind(chart: Chart, prepared: Map<number, PreparedDataset>, filters: readonly RowFilter[], timezone: string): Bound[] {
    return chart.ChartDatasetConfigs.flatMap((raw) => {
      const dataset = prepared.get(raw.dataset_id);
      if (!dataset) return [];
      const config = effectiveConfig(raw, dataset.dataset);
      // Runtime filters become conditions of every configuration, so both paths apply them alike.
      const extra = filtersToConditions(filters, config.dateField ?? null, timezone);
      return [{ raw, dataset, config: extra.length > 0 ? { ...config, conditions: [...(config.conditions ?? []), ...extra] } : config }];
    });
  }

  /** The engine's computation over the prepared datasets; counts what was read and what a limit cut. */
  private async calculate(
    chart: Chart,
    timezone: string,
    bound: Bound[],
    variables: Record<string, unknown>,
  ): Promise<{ chartData: unknown; paths: ChartPath[]; truncation: Truncation | undefined; rowsRead: number }> {
    const runInputs = (b: Bound) => ({ variables, timezone, configured: b.config.configuration?.variables ?? [] });
    const { settings } = this.deps;
    let rowsRead = 0;
    let truncation: Truncation | undefined;
    let rowLimit = settings.rowLimit;
    // What the chart holds while it is computed (table rows, groups, distinct values), and so its data.
    const budget = new ByteBudget(settings.byteLimit);
    const outcome = await computeChart(
      chartInput(chart, timezone),
      bound.map((b) => b.config),
      {
        sqlQuery: (index) => bound[index]!.dataset.sqlQuery(runInputs(bound[index]!), (count) => (rowsRead += count)),
        withRows: async (indices, purpose, use) => {
          // A table shows its rows, so it holds them: the row and byte limits of a run apply.
          // Other types aggregate as rows go by: only their batches are bounded in bytes.
          // A diagnosis (why an empty chart is empty) reads as an aggregation does; it counts as no
          // read of the chart's data, and what cut it was said by the run it diagnoses.
          if (purpose === 'diagnose') {
            await this.withRows(indices.map((i) => bound[i]!), runInputs, { rowLimit: this.aggregationRowLimit(), byteLimit: Number.POSITIVE_INFINITY }, use);
            return;
          }
          rowLimit = purpose === 'table' ? settings.rowLimit : this.aggregationRowLimit();
          const limits = { rowLimit, byteLimit: purpose === 'table' ? settings.byteLimit : Number.POSITIVE_INFINITY };
          const opened = await this.withRows(indices.map((i) => bound[i]!), runInputs, limits, use);
          rowsRead += opened.rows;
          truncation = worstOf(truncation, opened.truncation);
        },
      },
      { pushdown: settings.pushdown, budget },
    );
    if (budget.exceeded) truncation = worstOf(truncation, { truncated: true, truncatedBy: 'bytes', rowLimit, byteLimit: budget.limit });
    // An empty chart whose datasets ran with variables that have no value: that is the first thing to fix.
    const unset = outcome.empty ? unsetVariables(bound, variables) : [];
    if (unset.length > 0) (outcome.chartData as Record<string, unknown>).empty = { reason: 'VARIABLE_MISSING', variables: unset, datasetIndex: 0 };
    return { ...outcome, truncation, rowsRead };
  }

  /**
   * Aggregation holds groups, not rows, so it reads every row up to PLOTLINE_CHART_ROW_LIMIT
   * (0 = no limit) rather than the much lower row limit of a collected run.
   */
  private aggregationRowLimit(): number {
    return this.deps.settings.chartRowLimit === 0 ? Number.MAX_SAFE_INTEGER : this.deps.settings.chartRowLimit;
  }

  /**
   * Opens one run per dataset (and set of configured variables) for the given configurations and
   * hands out a row source per configuration; runs bound by several configurations are read once.
   * Every run is closed afterwards, also on failure.
   */
  private async withRows(
    bound: Bound[],
    runInputs: (b: Bound) => { variables: Record<string, unknown>; timezone: string; configured: { name: string; value: unknown }[] },
    limits: { rowLimit: number; byteLimit: number },
    use: (sources: RowSource[]) => Promise<void>,
  ): Promise<{ rows: number; truncation: Truncation | undefined }> {
    const groups = new Map<string, { bound: Bound; members: number[] }>();
    bound.forEach((b, index) => {
      const key = `${b.raw.dataset_id}:${stableHash(b.config.configuration?.variables ?? [])}`;
      const group = groups.get(key) ?? { bound: b, members: [] };
      group.members.push(index);
      groups.set(key, group);
    });
    const opened: DatasetRows[] = [];
    const sources = new Array<RowSource>(bound.length);
    try {
      for (const group of groups.values()) {
        const rows = await group.bound.dataset.stream(runInputs(group.bound), limits);
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
      const metas = opened.map((rows) => rows.meta());
      return { rows: metas.reduce((sum, meta) => sum + meta.rowCount, 0), truncation: worstTruncation(metas, limits.rowLimit) };
    } finally {
      await Promise.all(opened.map((rows) => rows.close().catch(() => undefined)));
    }
  }

  // ---- unsaved charts (previews): the engine path of `compute`, without the cache or a save ----

  /**
   * chartData of a chart that is not stored (built by `ChartsService.draft`, which checked access
   * and every dataset): the engine path of `compute`, with nothing cached or saved; runtime inputs
   * apply to this answer only.
   */
  async computeUnsaved(
    { chart, project }: LoadedChart,
    inputs: { variables?: Record<string, unknown>; filters?: RuntimeFilter[] },
  ): Promise<{ chartData: unknown; truncation: Truncation | undefined; paths: ChartPath[] }> {
    const timezone = project.timezone ?? 'UTC';
    const runtime = filtersForChart(inputs.filters ?? [], chart.id, timezone);
    const { bound } = await this.prepareBound(chart, project, runtime.filters);
    const computed = await this.calculate(chart, timezone, bound, { ...inputs.variables, ...runtime.variables });
    return { chartData: markTruncated(computed.chartData, computed.truncation), truncation: computed.truncation, paths: computed.paths };
  }
}
