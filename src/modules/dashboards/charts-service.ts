import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import { ADDITIVE_OPERATIONS, allowsBreakdown, BREAKDOWN_CHART_TYPES, normalizeFieldPath } from '../../engine/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { can, ownsAny, type Action, type Membership } from '../../platform/authorization.js';
import { toIso } from '../../store/columns.js';
import type { Db } from '../../store/index.js';
import type { ProjectsService } from './projects-service.js';
import type { SharingRepository } from './sharing-repository.js';
import type { Chart, ChartDatasetConfig, ChartsRepository, DatasetRef, ProjectRef } from './charts-repository.js';
import { CHART_DISPLAY_DEFAULTS, withDisplayDefaults } from './chart-display.js';
import { visualizationOf } from './chart-visualization.js';
import { applyVisualization, remapBindings } from './chart-visualization-write.js';
import type { VisualizationInput } from './chart-visualization-schemas.js';
import {
  Condition,
  UpdateChart,
  UpdateChartDatasetConfig,
  type CdcInput,
  type ChartInput,
  type CreateCdcInput,
  type CreateChartInput,
  type PreviewChartInput,
  type QuickCreateChartInput,
} from './charts-schemas.js';

// Writable keys come from the body schemas, so a field is either declared there or never stored.
// The visualization spec is not stored as sent: it is checked and written onto the configs first.
const CHART_KEYS = (Object.keys(UpdateChart.properties) as (keyof ChartInput)[]).filter((key) => key !== 'visualization');
const CDC_KEYS = Object.keys(UpdateChartDatasetConfig.properties) as (keyof CdcInput)[];
const CONDITION_KEYS = Object.keys(Condition.properties);
const DATE_KEYS = new Set<string>(['startDate', 'endDate']);

/** What a chart holds for a column its body leaves out: the migration's defaults, and the display options' own. */
const CHART_DEFAULTS: Omit<Chart, 'id' | 'project_id' | 'type' | 'createdAt' | 'updatedAt' | 'ChartDatasetConfigs' | 'visualization'> = {
  name: null,
  subType: null,
  public: false,
  shareable: false,
  chartData: null,
  chartDataUpdated: null,
  lastError: null,
  ...CHART_DISPLAY_DEFAULTS,
  startDate: null,
  endDate: null,
  dateVarsFormat: null,
  includeZeros: true,
  currentEndDate: false,
  fixedStartDate: false,
  timeInterval: 'day',
  autoUpdate: null,
  lastAutoUpdate: null,
  draft: true,
  disabledExport: null,
  dashboardOrder: null,
};

/** A chart the actor may act on, with its dashboard and the membership that allowed it. */
export interface AuthorizedChart {
  project: ProjectRef;
  membership: Membership;
  chart: Chart;
}

export interface ChartsDeps {
  db: Db;
  charts: ChartsRepository;
  projects: ProjectsService;
  sharing: SharingRepository;
}

export class ChartsService {
  constructor(private readonly deps: ChartsDeps) {}

  /** The access check of every route under /project/{pid}/chart/{id}; a chart of another dashboard is a 404. */
  async authorize(actor: Actor, projectId: number, chartId: number, action: Action): Promise<AuthorizedChart> {
    const found = await this.deps.charts.findWithGrant(projectId, chartId, actor.kind === 'user' ? actor.userId : null);
    if (!found) {
      // The same answer as any other route of the dashboard (404, 403), else the chart is missing.
      await this.deps.projects.authorize(actor, projectId, action);
      throw new NotFoundError('Chart');
    }
    const membership = await this.deps.projects.admit(actor, found.project.team_id, projectId, found.grant, action);
    return { ...found, membership };
  }

  async list(actor: Actor, projectId: number): Promise<Chart[]> {
    await this.deps.projects.authorize(actor, projectId, 'chart:read');
    return this.deps.charts.listByProject(projectId);
  }

  async get(actor: Actor, projectId: number, chartId: number): Promise<Chart> {
    return (await this.authorize(actor, projectId, chartId, 'chart:read')).chart;
  }

  async create(actor: Actor, projectId: number, input: CreateChartInput): Promise<Chart> {
    await this.deps.projects.authorize(actor, projectId, 'chart:write');
    const id = await this.deps.db.transaction().execute(async (trx) => {
      const chartId = await this.insertChart(projectId, input, trx);
      // Without configs, only a markdown layer can be saved (bound layers are a 400 naming them).
      if (input.visualization !== undefined) await this.saveVisualization(projectId, chartId, input.visualization, trx);
      return chartId;
    });
    return this.load(projectId, id);
  }

  /**
   * A chart and its dataset configs in one transaction: a bad config leaves nothing behind. `at`
   * names where the body came from in errors (a chart template's, say).
   */
  async quickCreate(actor: Actor, projectId: number, input: QuickCreateChartInput, at = 'body'): Promise<Chart> {
    const [chart] = await this.quickCreateMany(actor, projectId, [input], () => at);
    return chart!;
  }

  /**
   * Several quick-creates in one transaction: every chart is made, or none (a template's charts).
   * `at(i)` names the i-th body in errors.
   */
  async quickCreateMany(actor: Actor, projectId: number, inputs: readonly QuickCreateChartInput[], at: (index: number) => string): Promise<Chart[]> {
    const { project, membership } = await this.deps.projects.authorize(actor, projectId, 'chart:write');
    const ids = await this.deps.db.transaction().execute(async (trx) => {
      const made: number[] = [];
      for (const [position, input] of inputs.entries()) {
        const where = at(position);
        const configs = input.chartDatasetConfigs ?? [];
        const chartId = await this.insertChart(projectId, input, trx);
        const created: string[] = [];
        for (const [index, config] of configs.entries()) {
          const dataset = await this.dataset(project, membership, config.dataset_id, `${where}.chartDatasetConfigs.${index}.dataset_id`, trx);
          created.push((await this.deps.charts.createConfig(chartId, this.newConfigFields(config, dataset, index), trx)).id);
        }
        // The layers name the configs by the client's ids of them (Chartbrew's quick-create).
        const spec = input.visualization && remapBindings(input.visualization, configs, created);
        if (spec !== undefined) await this.saveVisualization(projectId, chartId, spec, trx, `${where}.visualization`);
        await this.checkBreakdowns(projectId, chartId, trx, (i, field) => (spec !== undefined ? `${where}.visualization` : `${where}.chartDatasetConfigs.${i}.${field}`));
        made.push(chartId);
      }
      return made;
    });
    const charts: Chart[] = [];
    for (const id of ids) charts.push(await this.load(projectId, id));
    return charts;
  }

  async update(actor: Actor, projectId: number, chartId: number, input: ChartInput): Promise<Chart> {
    await this.authorize(actor, projectId, chartId, 'chart:write');
    const fields = chartFields(input);
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.charts.update(projectId, chartId, fields, trx))) throw new NotFoundError('Chart');
      if (input.visualization !== undefined) await this.saveVisualization(projectId, chartId, input.visualization, trx);
      if (input.visualization !== undefined || fields.type !== undefined) {
        await this.checkBreakdowns(projectId, chartId, trx, () => (input.visualization !== undefined ? 'body.visualization' : 'body.type'));
      }
    });
    return this.load(projectId, chartId);
  }

  async delete(actor: Actor, projectId: number, chartId: number): Promise<void> {
    const { project } = await this.authorize(actor, projectId, chartId, 'chart:write');
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.sharing.deleteForEntities(project.team_id, 'Chart', [chartId], trx);
      if (!(await this.deps.charts.delete(projectId, chartId, trx))) throw new NotFoundError('Chart');
    });
  }

  async createConfig(actor: Actor, projectId: number, chartId: number, input: CreateCdcInput): Promise<ChartDatasetConfig> {
    const { project, membership } = await this.authorize(actor, projectId, chartId, 'chart:write');
    const order = input.order ?? (await this.deps.charts.nextConfigOrder(chartId));
    return this.deps.db.transaction().execute(async (trx) => {
      const dataset = await this.dataset(project, membership, input.dataset_id, 'body.dataset_id', trx);
      const created = await this.deps.charts.createConfig(chartId, this.newConfigFields(input, dataset, order), trx);
      await this.checkBreakdowns(projectId, chartId, trx, (_i, field) => `body.${field}`);
      await this.refreshSavedVisualization(projectId, chartId, trx);
      return created;
    });
  }

  async updateConfig(actor: Actor, projectId: number, chartId: number, rawCdcId: string, input: CdcInput): Promise<ChartDatasetConfig> {
    const { project, membership } = await this.authorize(actor, projectId, chartId, 'chart:write');
    const cdcId = rawCdcId.toLowerCase();
    if (!(await this.deps.charts.findConfig(chartId, cdcId))) throw new NotFoundError('Chart dataset config');
    return this.deps.db.transaction().execute(async (trx) => {
      if (input.dataset_id !== undefined) await this.dataset(project, membership, input.dataset_id, 'body.dataset_id', trx);
      const updated = await this.deps.charts.updateConfig(chartId, cdcId, cdcFields(input), trx);
      if (!updated) throw new NotFoundError('Chart dataset config');
      if (input.breakdown !== undefined || input.breakdownOther !== undefined || input.yAxisOperation !== undefined) {
        await this.checkBreakdowns(projectId, chartId, trx, (_i, field) => `body.${field}`);
      }
      await this.refreshSavedVisualization(projectId, chartId, trx);
      return updated;
    });
  }

  async deleteConfig(actor: Actor, projectId: number, chartId: number, cdcId: string): Promise<void> {
    await this.authorize(actor, projectId, chartId, 'chart:write');
    await this.deps.db.transaction().execute(async (trx) => {
      // Ids are stored as lower-case UUIDs; the path may carry either case.
      if (!(await this.deps.charts.deleteConfig(chartId, cdcId.toLowerCase(), trx))) throw new NotFoundError('Chart dataset config');
      await this.refreshSavedVisualization(projectId, chartId, trx);
    });
  }

  /**
   * The chart `quickCreate` would store for this body, built in memory and never written: the same
   * field rules and defaults, every config's dataset checked against the team and the caller's
   * projects (unknown, foreign and not-own ids are the same 404). For previews of unsaved charts,
   * which need the rights to run and to write charts on the dashboard.
   */
  async draft(actor: Actor, projectId: number, input: PreviewChartInput): Promise<AuthorizedChart> {
    const { project, membership } = await this.deps.projects.authorize(actor, projectId, 'chart:query');
    assertCan(membership, 'chart:write');
    const named = typeof input.name === 'string' && input.name.trim() !== '';
    const fields = withDisplayDefaults(chartFields({ ...input, name: named ? input.name : undefined }));
    const at = new Date().toISOString();
    const configs: ChartDatasetConfig[] = [];
    for (const [index, config] of input.chartDatasetConfigs.entries()) {
      const dataset = await this.deps.charts.datasetInTeam(project.team_id, config.dataset_id);
      if (!dataset || !ownsAny(membership, dataset.project_ids)) {
        throw new NotFoundError(`Dataset ${config.dataset_id} (body.chartDatasetConfigs.${index}.dataset_id)`);
      }
      configs.push(unsavedConfig(this.newConfigFields(config, dataset, index), at));
    }
    // Stored configs come back by `order`; equal orders keep the body's order here.
    input.chartDatasetConfigs.forEach((config, index) => checkBreakdown(fields.type ?? input.type, config, (field) => `body.chartDatasetConfigs.${index}.${field}`));
    configs.sort((a, b) => (a.order ?? Number.POSITIVE_INFINITY) - (b.order ?? Number.POSITIVE_INFINITY));
    const unsaved = { ...CHART_DEFAULTS, ...fields, id: 0, project_id: projectId, type: fields.type ?? input.type, createdAt: at, updatedAt: at, ChartDatasetConfigs: configs };
    const chart: Chart = { ...unsaved, visualization: visualizationOf(null, unsaved, configs) };
    return { project, membership, chart };
  }

  /** A chart with its configs and its dashboard's timezone for a run, once access is decided elsewhere (share links, schedules). */
  async loadForRun(teamId: number, chartId: number): Promise<{ chart: Chart; project: ProjectRef } | undefined> {
    return this.deps.charts.findInTeamWithProject(teamId, chartId);
  }

  /** Whether the chart is on that dashboard, once access to the dashboard is decided elsewhere (share policies). */
  async isOnDashboard(projectId: number, chartId: number): Promise<boolean> {
    return (await this.deps.charts.find(projectId, chartId)) !== undefined;
  }

  /** Persists a computed result and its time; request bodies never reach these columns. */
  /** An auto-update of the chart started at `at` (`lastAutoUpdate`), in the refresh's transaction when given. */
  async markAutoUpdated(chartId: number, at: string, db?: Db): Promise<void> {
    await this.deps.charts.markAutoUpdated(chartId, at, db);
  }

  async saveChartData(projectId: number, chartId: number, chartData: unknown, at?: string): Promise<void> {
    if (!(await this.deps.charts.saveChartData(projectId, chartId, chartData, at))) throw new NotFoundError('Chart');
  }

  async saveLastError(projectId: number, chartId: number, error: { code: string; message: string; at: string }): Promise<void> {
    await this.deps.charts.saveLastError(projectId, chartId, error);
  }

  private async load(projectId: number, chartId: number): Promise<Chart> {
    const chart = await this.deps.charts.find(projectId, chartId);
    if (!chart) throw new NotFoundError('Chart');
    return chart;
  }

  /**
   * Writes a spec onto the chart and its configs (chart-visualization-write.ts) and keeps it, in the
   * caller's transaction, after the chart fields of the same body: where both set a field the spec
   * wins, as it does in Chartbrew, whose editors send a whole chart with its spec. Null forgets the
   * saved spec: the chart's is derived from its configs again.
   */
  private async saveVisualization(projectId: number, chartId: number, spec: VisualizationInput | null, trx: Db, at = 'body.visualization'): Promise<void> {
    if (spec === null) {
      await this.deps.charts.saveVisualization(chartId, null, trx);
      return;
    }
    const chart = await this.deps.charts.find(projectId, chartId, trx);
    if (!chart) throw new NotFoundError('Chart');
    const write = applyVisualization(spec, chart, chart.ChartDatasetConfigs, at);
    await this.deps.charts.update(projectId, chartId, { ...write.chart, visualization: write.stored }, trx);
    for (const [cdcId, change] of write.configs) {
      // A spec sent back as it was answered changes no config: those are left untouched (and their updatedAt too).
      const current = chart.ChartDatasetConfigs.find((config) => config.id === cdcId);
      const fields = cdcFields(change);
      if (current && Object.entries(fields).every(([key, value]) => isDeepStrictEqual(Reflect.get(current, key), value))) continue;
      await this.deps.charts.updateConfig(chartId, cdcId, fields, trx);
    }
  }

  /**
   * The chart as written in this transaction may be computed: a config's breakdown only on a chart
   * type that draws a series per value, its "Other" series only over a count or a sum (a 400 at
   * `path(index of the config, field)`, which rolls it back).
   */
  private async checkBreakdowns(projectId: number, chartId: number, trx: Db, path: (index: number, field: string) => string): Promise<void> {
    const chart = await this.deps.charts.find(projectId, chartId, trx);
    if (!chart) throw new NotFoundError('Chart');
    chart.ChartDatasetConfigs.forEach((config, index) => checkBreakdown(chart.type, config, (field) => path(index, field)));
  }

  /** After a config was added, changed or deleted: a saved spec is rewritten from the configs (an unsaved one is derived anyway). */
  private async refreshSavedVisualization(projectId: number, chartId: number, trx: Db): Promise<void> {
    if (!(await this.deps.charts.hasSavedVisualization(chartId, trx))) return;
    const chart = await this.deps.charts.find(projectId, chartId, trx);
    if (chart) await this.deps.charts.saveVisualization(chartId, chart.visualization, trx);
  }

  private async insertChart(projectId: number, input: CreateChartInput, trx: Db): Promise<number> {
    const fields = withDisplayDefaults(chartFields(input));
    if (fields.dashboardOrder === undefined) fields.dashboardOrder = await this.deps.charts.nextDashboardOrder(projectId, trx);
    return this.deps.charts.create(projectId, fields, trx);
  }

  /**
   * A config may only draw a dataset of the dashboard's team that the caller may read (for project
   * roles, one attached to one of their own projects). Unknown, foreign and not-own ids get the same
   * answer, so nothing leaks across tenants. The caller may edit this dashboard (decided before), so a
   * dataset not yet attached to it is attached here, in the config's transaction: any dataset of the
   * team can be used on any dashboard its user may edit, and the dashboard's members see it afterwards.
   */
  private async dataset(project: ProjectRef, membership: Membership, datasetId: number, path: string, db: Db): Promise<DatasetRef> {
    const dataset = await this.deps.charts.datasetInTeam(project.team_id, datasetId, db);
    if (!dataset || !can(membership, 'dataset:read') || !ownsAny(membership, dataset.project_ids)) {
      throw ValidationError.field(path, 'is not a dataset of this team that you may use');
    }
    if (!dataset.project_ids.includes(project.id)) {
      await this.deps.charts.attachDataset(project.team_id, datasetId, project.id, db);
      return { ...dataset, project_ids: [...dataset.project_ids, project.id] };
    }
    return dataset;
  }

  private newConfigFields(input: CreateCdcInput, dataset: DatasetRef, order: number): CdcInput & { dataset_id: number } {
    const fields = cdcFields(input);
    return {
      ...fields,
      dataset_id: input.dataset_id,
      legend: fields.legend !== undefined ? fields.legend : (dataset.name ?? dataset.legend),
      order: fields.order ?? order,
      conditions: fields.conditions ?? [],
      excludedFields: fields.excludedFields ?? [],
      columnsOrder: fields.columnsOrder ?? [],
      configuration: fields.configuration ?? { variables: [] },
    };
  }
}

/** The writable keys of a body, validated and normalised (dates as ISO UTC, names trimmed); the spec goes its own way. */
function chartFields(input: ChartInput): Omit<ChartInput, 'visualization'> {
  const fields: Record<string, unknown> = {};
  for (const key of CHART_KEYS) {
    const value = input[key];
    if (value === undefined) continue;
    fields[key] = DATE_KEYS.has(key) && typeof value === 'string' ? toIso(value) : value;
  }
  if (typeof fields['name'] === 'string') {
    const name = fields['name'].trim();
    if (name === '') throw ValidationError.field('body.name', 'must not be empty');
    fields['name'] = name;
  }
  return fields as Omit<ChartInput, 'visualization'>;
}

/** A config as the store would return it after `createConfig`, without storing it. */
function unsavedConfig(fields: CdcInput & { dataset_id: number }, at: string): ChartDatasetConfig {
  return {
    id: randomUUID(),
    chart_id: 0,
    dataset_id: fields.dataset_id,
    xAxis: fields.xAxis ?? null,
    xAxisOperation: fields.xAxisOperation ?? null,
    yAxis: fields.yAxis ?? null,
    yAxisOperation: fields.yAxisOperation ?? null,
    dateField: fields.dateField ?? null,
    dateFormat: fields.dateFormat ?? null,
    conditions: fields.conditions ?? [],
    formula: fields.formula ?? null,
    datasetColor: fields.datasetColor ?? null,
    fillColor: fields.fillColor ?? null,
    fill: fields.fill ?? false,
    multiFill: fields.multiFill ?? false,
    legend: fields.legend ?? null,
    pointRadius: fields.pointRadius ?? null,
    excludedFields: fields.excludedFields ?? [],
    sort: fields.sort ?? null,
    columnsOrder: fields.columnsOrder ?? [],
    order: fields.order ?? null,
    maxRecords: fields.maxRecords ?? null,
    goal: fields.goal ?? null,
    configuration: fields.configuration ?? {},
    breakdown: fields.breakdown ?? null,
    breakdownLimit: fields.breakdownLimit ?? null,
    breakdownOther: fields.breakdownOther ?? false,
    breakdownOtherLabel: fields.breakdownOtherLabel ?? null,
    createdAt: at,
    updatedAt: at,
  };
}

/** A breakdown is a valid field path, on a chart type that draws one series per value (the engine's list). */
function checkBreakdown(
  type: string | null,
  config: { breakdown?: string | null; breakdownOther?: boolean; yAxisOperation?: string | null },
  path: (field: 'breakdown' | 'breakdownOther') => string,
): void {
  const { breakdown } = config;
  if (breakdown === null || breakdown === undefined || breakdown.trim() === '') return;
  try {
    normalizeFieldPath(breakdown);
  } catch {
    throw ValidationError.field(path('breakdown'), `"${breakdown}" is not a valid field path (root[].country)`);
  }
  if (!allowsBreakdown(type ?? 'line')) {
    throw ValidationError.field(path('breakdown'), `cannot be computed on a ${type} chart: a breakdown draws one series per value, on ${[...BREAKDOWN_CHART_TYPES].join(', ')} charts only`);
  }
  // The config's own operation; one it takes from its dataset is checked when the chart runs.
  const operation = config.yAxisOperation;
  if (config.breakdownOther === true && operation && !ADDITIVE_OPERATIONS.has(operation)) {
    throw ValidationError.field(path('breakdownOther'), `cannot be computed over ${operation}: the "Other" series adds up the series past the limit, so it needs a count or a sum`);
  }
}

function cdcFields(input: CdcInput): CdcInput {
  const fields: Record<string, unknown> = {};
  for (const key of CDC_KEYS) {
    const value = input[key];
    if (value !== undefined) fields[key] = value;
  }
  // Conditions keep their declared keys only.
  if (Array.isArray(input.conditions)) {
    fields['conditions'] = input.conditions.map((condition) =>
      Object.fromEntries(Object.entries(condition).filter(([key]) => CONDITION_KEYS.includes(key))),
    );
  }
  return fields as CdcInput;
}
