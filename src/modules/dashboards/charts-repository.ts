import { randomUUID } from 'node:crypto';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toBoolOrNull, toIso, toJson } from '../../store/columns.js';
import type { ChartDatasetConfigsTable, ChartsTable } from '../../store/types.js';
import { grantFromColumns, type Grant } from '../../platform/authorization.js';
import type { Static } from 'typebox';
import type { CdcInput, ChartInput, Chart as ChartSchema, ChartDatasetConfig as ChartDatasetConfigSchema } from './charts-schemas.js';
import { CHART_DISPLAY_COLUMNS, type ChartDisplay } from './chart-display.js';
import { visualizationOf, type Spec } from './chart-visualization.js';

// Each display option is a column of the same name (a migration adds it; src/store/types.ts names it):
// this line stops the build when one is missing there.
const _displayColumns: readonly (keyof ChartsTable)[] = [] as (keyof ChartDisplay)[];

/**
 * A chart dataset config as stored and answered: its response schema. The store always holds an
 * object in `configuration` (NULL reads as {}), which the schema documents loosely.
 */
export type ChartDatasetConfig = Omit<Static<typeof ChartDatasetConfigSchema>, 'configuration'> & { configuration: Record<string, unknown> };

/** What a chart run and the chart routes need of its dashboard. */
export interface ProjectRef {
  id: number;
  team_id: number;
  timezone: string | null;
}

/** A chart with its dataset configs, as stored and answered: its response schema. */
export type Chart = Omit<Static<typeof ChartSchema>, 'ChartDatasetConfigs'> & { ChartDatasetConfigs: ChartDatasetConfig[] };

/**
 * The chart fields a write stores: a body's, with the visualization spec as it is kept (validated
 * and written onto the configs by the service; null = none saved, derived when read).
 */
export type ChartWrite = Omit<ChartInput, 'visualization'> & { visualization?: Spec | null };

/** A dataset as far as chart configs need it: tenancy and a default legend. */
export interface DatasetRef {
  id: number;
  team_id: number;
  name: string | null;
  legend: string | null;
  project_ids: number[];
}

const CHART_JSON: readonly string[] = [...CHART_DISPLAY_COLUMNS.filter((c) => c.kind === 'json').map((c) => c.key), 'visualization'];

const CDC_JSON = ['conditions', 'fillColor', 'excludedFields', 'columnsOrder', 'configuration'] as const;

function toConfig(row: Selectable<ChartDatasetConfigsTable>): ChartDatasetConfig {
  return {
    id: row.id,
    chart_id: row.chart_id,
    dataset_id: row.dataset_id,
    xAxis: row.xAxis,
    xAxisOperation: row.xAxisOperation,
    yAxis: row.yAxis,
    yAxisOperation: row.yAxisOperation,
    dateField: row.dateField,
    dateFormat: row.dateFormat,
    conditions: fromJson<unknown[]>(row.conditions, []),
    formula: row.formula,
    datasetColor: row.datasetColor,
    fillColor: fromJson<unknown>(row.fillColor, null),
    fill: toBool(row.fill),
    multiFill: toBool(row.multiFill),
    legend: row.legend,
    pointRadius: row.pointRadius,
    excludedFields: fromJson<string[]>(row.excludedFields, []),
    sort: row.sort,
    columnsOrder: fromJson<string[]>(row.columnsOrder, []),
    order: row.order === null ? null : Number(row.order),
    maxRecords: row.maxRecords,
    goal: row.goal === null ? null : Number(row.goal),
    configuration: fromJson<Record<string, unknown>>(row.configuration, {}),
    breakdown: row.breakdown,
    breakdownLimit: row.breakdownLimit,
    breakdownOther: toBool(row.breakdownOther),
    breakdownOtherLabel: row.breakdownOtherLabel,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** The display columns of a chart row, each read by its column kind. */
function toDisplay(row: Selectable<ChartsTable>): ChartDisplay {
  const out: Record<string, unknown> = {};
  for (const { key, kind } of CHART_DISPLAY_COLUMNS) {
    const value = row[key];
    out[key] = kind === 'bool' ? toBool(value as boolean | number) : kind === 'boolOrNull' ? toBoolOrNull(value as boolean | number | null) : kind === 'json' ? fromJson<unknown>(value, null) : value;
  }
  return out as ChartDisplay;
}

function toChart(row: Selectable<ChartsTable>, configs: ChartDatasetConfig[]): Chart {
  const chart: Omit<Chart, 'visualization'> = {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    type: row.type,
    subType: row.subType,
    public: toBool(row.public),
    shareable: toBool(row.shareable),
    chartData: fromJson<unknown>(row.chartData, null),
    chartDataUpdated: toIso(row.chartDataUpdated),
    lastError: fromJson<Chart['lastError']>(row.lastError, null),
    ...toDisplay(row),
    startDate: toIso(row.startDate),
    endDate: toIso(row.endDate),
    dateVarsFormat: row.dateVarsFormat,
    includeZeros: toBool(row.includeZeros),
    currentEndDate: toBool(row.currentEndDate),
    fixedStartDate: toBool(row.fixedStartDate),
    timeInterval: row.timeInterval,
    autoUpdate: row.autoUpdate,
    lastAutoUpdate: toIso(row.lastAutoUpdate),
    draft: toBool(row.draft),
    disabledExport: toBoolOrNull(row.disabledExport),
    dashboardOrder: row.dashboardOrder,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    ChartDatasetConfigs: configs,
  };
  // Every chart answer (dashboards, share links, runs) reads charts here: the spec is answered in
  // step with the configs it is computed from, whoever changed them (chart-visualization.ts).
  return { ...chart, visualization: visualizationOf(fromJson<unknown>(row.visualization, null), chart, configs) };
}

/** Only the keys present in `fields` are written; JSON columns are serialised. */
function jsonColumns<T extends object>(fields: T, jsonKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[key] = jsonKeys.includes(key) ? toJson(value) : value;
  }
  return out;
}

// Portable ordering (SQLite sorts NULL first, Postgres last): done here, where the rows are few.
function byDashboardOrder(a: Selectable<ChartsTable>, b: Selectable<ChartsTable>): number {
  const ao = a.dashboardOrder ?? Number.POSITIVE_INFINITY;
  const bo = b.dashboardOrder ?? Number.POSITIVE_INFINITY;
  return ao === bo ? a.id - b.id : ao < bo ? -1 : 1;
}

function byConfigOrder(a: ChartDatasetConfig, b: ChartDatasetConfig): number {
  const ao = a.order ?? Number.POSITIVE_INFINITY;
  const bo = b.order ?? Number.POSITIVE_INFINITY;
  if (ao !== bo) return ao < bo ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class ChartsRepository {
  constructor(private readonly db: Db) {}

  /** Charts of a project (dashboardOrder, then id), each with its configs (order). */
  async listByProject(projectId: number, db: Db = this.db): Promise<Chart[]> {
    const rows = await db.selectFrom('charts').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
    return this.withConfigs(rows.sort(byDashboardOrder), db);
  }

  /** id, name and layout of the charts of several projects (dashboard lists). */
  async summaries(projectIds: readonly number[]): Promise<{ id: number; project_id: number; name: string | null; layout: unknown }[]> {
    if (projectIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('charts')
      .select(['id', 'project_id', 'name', 'layout', 'dashboardOrder'])
      .where('project_id', 'in', projectIds)
      .orderBy('id')
      .execute();
    return rows
      .sort((a, b) => (a.dashboardOrder ?? Number.POSITIVE_INFINITY) - (b.dashboardOrder ?? Number.POSITIVE_INFINITY) || a.id - b.id)
      .map((r) => ({ id: r.id, project_id: r.project_id, name: r.name, layout: fromJson<unknown>(r.layout, null) }));
  }

  async find(projectId: number, chartId: number, db: Db = this.db): Promise<Chart | undefined> {
    const row = await db.selectFrom('charts').selectAll().where('project_id', '=', projectId).where('id', '=', chartId).executeTakeFirst();
    if (!row) return undefined;
    const [chart] = await this.withConfigs([row], db);
    return chart;
  }

  /**
   * A chart of a dashboard with what deciding access to it and running it needs: the dashboard's
   * team and timezone and the team_roles row of `userId` (none for API keys). Two reads: the chart
   * with them, and its dataset configs.
   */
  async findWithGrant(projectId: number, chartId: number, userId: number | null): Promise<{ chart: Chart; project: ProjectRef; grant: Grant | undefined } | undefined> {
    const row = await this.db
      .selectFrom('charts')
      .innerJoin('projects', 'projects.id', 'charts.project_id')
      .leftJoin('team_roles', (join) => join.onRef('team_roles.team_id', '=', 'projects.team_id').on('team_roles.user_id', '=', userId ?? -1))
      .selectAll('charts')
      .select(['projects.team_id as project_team_id', 'projects.timezone as project_timezone', 'team_roles.role as grant_role', 'team_roles.projects as grant_projects'])
      .where('charts.project_id', '=', projectId)
      .where('charts.id', '=', chartId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { project_team_id, project_timezone, grant_role, grant_projects, ...chartRow } = row;
    const [chart] = await this.withConfigs([chartRow]);
    return {
      chart: chart!,
      project: { id: projectId, team_id: project_team_id, timezone: project_timezone },
      grant: grant_role === null ? undefined : grantFromColumns(grant_role, fromJson<unknown[]>(grant_projects, [])),
    };
  }

  /** A chart of a team, looked up by id alone (share links resolve a chart from a policy). */
  async findInTeam(teamId: number, chartId: number): Promise<Chart | undefined> {
    return (await this.findInTeamWithProject(teamId, chartId))?.chart;
  }

  /** The same, with what a run needs of its dashboard (two reads: the chart with it, its configs). */
  async findInTeamWithProject(teamId: number, chartId: number): Promise<{ chart: Chart; project: ProjectRef } | undefined> {
    const row = await this.db
      .selectFrom('charts')
      .innerJoin('projects', 'projects.id', 'charts.project_id')
      .selectAll('charts')
      .select(['projects.timezone as project_timezone'])
      .where('projects.team_id', '=', teamId)
      .where('charts.id', '=', chartId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { project_timezone, ...chartRow } = row;
    const [chart] = await this.withConfigs([chartRow]);
    return { chart: chart!, project: { id: chartRow.project_id, team_id: teamId, timezone: project_timezone } };
  }

  async ids(projectId: number, db: Db = this.db): Promise<number[]> {
    const rows = await db.selectFrom('charts').select('id').where('project_id', '=', projectId).execute();
    return rows.map((r) => r.id);
  }

  async nextDashboardOrder(projectId: number, db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('charts')
      .select((eb) => eb.fn.max('dashboardOrder').as('max'))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    const max = row?.max;
    return max === null || max === undefined ? 0 : Number(max) + 1;
  }

  async create(projectId: number, fields: ChartWrite, db: Db = this.db): Promise<number> {
    const at = now();
    const values = { ...jsonColumns(fields, CHART_JSON), project_id: projectId, createdAt: at, updatedAt: at } as Insertable<ChartsTable>;
    const row = await db.insertInto('charts').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async update(projectId: number, chartId: number, fields: ChartWrite, db: Db = this.db): Promise<boolean> {
    const changes = { ...jsonColumns(fields, CHART_JSON), updatedAt: now() } as Updateable<ChartsTable>;
    const result = await db.updateTable('charts').set(changes).where('project_id', '=', projectId).where('id', '=', chartId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Set when the chart's auto-update starts (in the transaction that takes its claim), never by a request body. */
  async markAutoUpdated(chartId: number, at: string, db: Db = this.db): Promise<void> {
    await db.updateTable('charts').set({ lastAutoUpdate: at }).where('id', '=', chartId).execute();
  }

  /** Persists a computed result; the only writer of chartData and chartDataUpdated. */
  async saveChartData(projectId: number, chartId: number, chartData: unknown, at: string = now()): Promise<boolean> {
    const result = await this.db
      .updateTable('charts')
      .set({ chartData: toJson(chartData), chartDataUpdated: at, lastError: null })
      .where('project_id', '=', projectId)
      .where('id', '=', chartId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Records that the chart's latest refresh failed; its data and `chartDataUpdated` stay those of the last good one. */
  async saveLastError(projectId: number, chartId: number, error: { code: string; message: string; at: string }): Promise<void> {
    await this.db.updateTable('charts').set({ lastError: toJson(error) }).where('project_id', '=', projectId).where('id', '=', chartId).execute();
  }

  /** The spec a chart keeps (null: none saved), written alone: after its configs changed, say. */
  async saveVisualization(chartId: number, visualization: Spec | null, db: Db = this.db): Promise<void> {
    await db.updateTable('charts').set({ visualization: toJson(visualization) }).where('id', '=', chartId).execute();
  }

  /** Whether the chart keeps a saved spec (the configs' writes then refresh it). */
  async hasSavedVisualization(chartId: number, db: Db = this.db): Promise<boolean> {
    const row = await db.selectFrom('charts').select('visualization').where('id', '=', chartId).executeTakeFirst();
    return row !== undefined && row.visualization !== null;
  }

  async delete(projectId: number, chartId: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('charts').where('project_id', '=', projectId).where('id', '=', chartId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // ---------- chart dataset configs ----------

  async findConfig(chartId: number, cdcId: string, db: Db = this.db): Promise<ChartDatasetConfig | undefined> {
    const row = await db.selectFrom('chart_dataset_configs').selectAll().where('chart_id', '=', chartId).where('id', '=', cdcId).executeTakeFirst();
    return row && toConfig(row);
  }

  async nextConfigOrder(chartId: number, db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('chart_dataset_configs')
      .select((eb) => eb.fn.max('order').as('max'))
      .where('chart_id', '=', chartId)
      .executeTakeFirst();
    const max = row?.max;
    return max === null || max === undefined ? 0 : Math.floor(Number(max)) + 1;
  }

  async createConfig(chartId: number, fields: CdcInput & { dataset_id: number }, db: Db = this.db): Promise<ChartDatasetConfig> {
    const at = now();
    const values = {
      ...jsonColumns(fields, CDC_JSON),
      id: randomUUID(),
      chart_id: chartId,
      createdAt: at,
      updatedAt: at,
    } as Insertable<ChartDatasetConfigsTable>;
    const row = await db.insertInto('chart_dataset_configs').values(values).returningAll().executeTakeFirstOrThrow();
    return toConfig(row);
  }

  async updateConfig(chartId: number, cdcId: string, fields: CdcInput, db: Db = this.db): Promise<ChartDatasetConfig | undefined> {
    const changes = { ...jsonColumns(fields, CDC_JSON), updatedAt: now() } as Updateable<ChartDatasetConfigsTable>;
    const row = await db
      .updateTable('chart_dataset_configs')
      .set(changes)
      .where('chart_id', '=', chartId)
      .where('id', '=', cdcId)
      .returningAll()
      .executeTakeFirst();
    return row && toConfig(row);
  }

  async deleteConfig(chartId: number, cdcId: string, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('chart_dataset_configs').where('chart_id', '=', chartId).where('id', '=', cdcId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The dataset only if it belongs to `teamId`: a foreign or unknown id looks the same. */
  async datasetInTeam(teamId: number, datasetId: number, db: Db = this.db): Promise<DatasetRef | undefined> {
    const row = await db
      .selectFrom('datasets')
      .select(['id', 'team_id', 'name', 'legend', 'project_ids'])
      .where('team_id', '=', teamId)
      .where('id', '=', datasetId)
      .executeTakeFirst();
    if (!row) return undefined;
    const projectIds = fromJson<unknown[]>(row.project_ids, []).map(Number).filter(Number.isInteger);
    return { id: row.id, team_id: row.team_id, name: row.name, legend: row.legend, project_ids: projectIds };
  }

  /**
   * Attaches a dataset of the team to one more dashboard (its `project_ids`), in the caller's
   * transaction; already attached, nothing is written.
   */
  async attachDataset(teamId: number, datasetId: number, projectId: number, db: Db = this.db): Promise<void> {
    const row = await db.selectFrom('datasets').select(['project_ids']).where('team_id', '=', teamId).where('id', '=', datasetId).executeTakeFirst();
    if (!row) return;
    const ids = fromJson<unknown[]>(row.project_ids, []).map(Number).filter(Number.isInteger);
    if (ids.includes(projectId)) return;
    await db
      .updateTable('datasets')
      .set({ project_ids: toJson([...ids, projectId]), updatedAt: now() } as never)
      .where('team_id', '=', teamId)
      .where('id', '=', datasetId)
      .execute();
  }

  private async withConfigs(rows: Selectable<ChartsTable>[], db: Db = this.db): Promise<Chart[]> {
    if (rows.length === 0) return [];
    const configRows = await db
      .selectFrom('chart_dataset_configs')
      .selectAll()
      .where(
        'chart_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const byChart = new Map<number, ChartDatasetConfig[]>();
    for (const config of configRows.map(toConfig)) {
      const list = byChart.get(config.chart_id) ?? [];
      list.push(config);
      byChart.set(config.chart_id, list);
    }
    return rows.map((row) => toChart(row, (byChart.get(row.id) ?? []).sort(byConfigOrder)));
  }
}
