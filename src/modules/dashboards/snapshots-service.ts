import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { OPERATOR_WORDS, VALUELESS_OPERATORS } from '../../render/card-notes.js';
import type { ChartView, DashboardView } from '../../render/index.js';
import { mapLimited } from '../../runtime/map-limited.js';
import { parseFilters, parseRuntimeVariables, type RuntimeFilter } from '../data/index.js';
import type { Chart } from './charts-repository.js';
import type { ChartsService } from './charts-service.js';
import { chartOverdue, type DashboardSchedule } from './chart-overdue.js';
import type { ChartRunService } from './chart-runs-service.js';
import type { FilterRunRequest, FilterRunsService } from './dashboard-filter-runs.js';
import type { DashboardFilter } from './dashboard-filters-repository.js';
import type { DashboardFiltersService } from './dashboard-filters-service.js';
import type { ImageFormat, ImageTheme, ImageTokens } from './image-tokens.js';
import type { PictureKind, PictureMetrics } from './picture-metrics.js';
import type { ProjectsService } from './projects-service.js';
import type { ChartFailure } from './share-viewer.js';

/** Limits of the options (the routes' schemas say the same). */
export const PICTURE_LIMITS = {
  width: { min: 200, max: 4096, chartDefault: 800, dashboardDefault: 1280 },
  height: { min: 150, max: 4096, chartDefault: 450 },
  expiresInSeconds: { min: 60, max: 90 * 24 * 3600, default: 7 * 24 * 3600 },
} as const;

/** What a signed link shows: a chart's picture with `chartId`, else the dashboard's. */
export interface ImageScope {
  teamId: number;
  projectId: number;
  chartId?: number;
}

export interface ImageLinkOptions {
  format: ImageFormat;
  theme?: ImageTheme;
  width?: number;
  expiresInSeconds?: number;
}

export interface ChartPictureScope {
  teamId: number;
  projectId: number;
  chartId: number;
}

export interface ChartPictureOptions {
  format: 'png' | 'svg';
  theme?: 'light' | 'dark';
  width?: number;
  height?: number;
}

export interface DashboardPictureOptions {
  format: 'png' | 'pdf';
  theme?: 'light' | 'dark';
  width?: number;
  pages?: 'screens' | 'single';
  /** A runtime filter state, as the filter runs take it (`POST /project/{id}/filter`). */
  filters?: FilterRunRequest;
}

export interface ChartPictureResult {
  contentType: string;
  body: Buffer;
  width: number;
  height: number;
  dataUpdatedAt: string | null;
}

export interface DashboardPictureResult {
  contentType: string;
  body: Buffer;
  pages: number;
  dataUpdatedAt: string | null;
}

export interface SnapshotsDeps {
  projects: ProjectsService;
  charts: ChartsService;
  chartRuns: ChartRunService;
  filterRuns: FilterRunsService;
  /** The dashboard's saved filters: a state's filter that is one of them is called by its label. */
  filters: DashboardFiltersService;
  access: AccessService;
  tokens: ImageTokens;
  metrics: PictureMetrics;
  /** The API's public origin (`BASE_URL`): signed links point there. */
  baseUrl: string;
  /** Charts without saved data computed at the same time. */
  concurrency: number;
  clock?: () => Date;
}

type Render = typeof import('../../render/index.js');

/** The drawing code (Chart.js, Skia, pdf-lib) is loaded on the first picture, not at every start. */
let render: Promise<Render> | undefined;
const loadRender = () =>
  (render ??= import('../../render/index.js').catch((error: unknown) => {
    render = undefined;
    throw error;
  }));

function intOption(value: number | undefined, path: string, limits: { min: number; max: number }, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < limits.min || value > limits.max) throw ValidationError.field(path, `must be an integer from ${limits.min} to ${limits.max}`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string, fallback?: T): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw ValidationError.field(path, `must be one of ${allowed.join(', ')}`);
}

/** What a picture draws of a chart: its data and display options, and nothing about who owns it. */
function viewOf(chart: Chart, chartData: unknown, chartDataUpdated: string | null, error?: string): ChartView {
  return {
    id: chart.id,
    name: chart.name,
    type: chart.type,
    chartData,
    chartDataUpdated,
    displayLegend: chart.displayLegend,
    dataLabels: chart.dataLabels,
    stacked: chart.stacked,
    horizontal: chart.horizontal,
    showGrowth: chart.showGrowth,
    xLabelTicks: chart.xLabelTicks,
    dashedLastPoint: chart.dashedLastPoint,
    content: chart.content,
    ranges: chart.ranges,
    minValue: chart.minValue,
    maxValue: chart.maxValue,
    defaultRowsPerPage: chart.defaultRowsPerPage,
    layout: chart.layout,
    datasetColor: chart.ChartDatasetConfigs[0]?.datasetColor ?? null,
    error: error ?? null,
  };
}

const newest = (times: (string | null)[]): string | null => times.reduce<string | null>((max, t) => (t !== null && (max === null || t > max) ? t : max), null);

function text(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (Array.isArray(value)) return value.map(text).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The header's line for each filter of a state: `country is FR`, `Date: last 30 days`, `region = EU`;
 * one with a label, as the report page words it: `Country is FR`, `Period: last 30 days`, `Region: EU`.
 */
function describeFilters(filters: RuntimeFilter[], variables: Record<string, unknown>, labels: ReadonlyMap<string, string>): string[] {
  const lines = filters.map((filter) => {
    const label = labelOf(filter, labels);
    if (filter.type === 'date') return `${label ?? 'Date'}: ${filter.preset ? filter.preset.replaceAll('_', ' ') : `${filter.startDate ?? '…'} – ${filter.endDate ?? '…'}`}`;
    if (filter.type === 'variable') return label === undefined ? `${filter.variable} = ${text(filter.value)}` : `${label}: ${text(filter.value)}`;
    const operator = filter.operator ?? 'is';
    const words = `${label ?? fieldName(filter.field)} ${OPERATOR_WORDS[operator] ?? operator}`;
    return VALUELESS_OPERATORS.includes(operator) ? words : `${words} ${text(filter.value)}`;
  });
  for (const [name, value] of Object.entries(variables)) lines.push(`${name} = ${text(value)}`);
  return lines;
}

/** The labels of a dashboard's saved filters, by id (ids are answered in lower case); those without one are left out. */
function labelsOf(saved: readonly DashboardFilter[]): Map<string, string> {
  return new Map(saved.flatMap((filter) => (filter.configuration.label ? [[filter.id.toLowerCase(), filter.configuration.label] as const] : [])));
}

function labelOf(filter: RuntimeFilter, labels: ReadonlyMap<string, string>): string | undefined {
  return filter.id === undefined ? undefined : labels.get(filter.id.toLowerCase());
}

/**
 * Pictures of charts and dashboards, drawn on the server from their `chartData` (src/render), and
 * signed links to them. Callers have decided access already: these methods only scope by the ids
 * they are given (the chart must be on that dashboard, the dashboard in that team).
 *
 * Data: a chart's saved `chartData` when it has some (what its last refresh computed); a chart
 * never computed is computed for the picture and not saved. With a filter state, every chart goes
 * through the filter runs (dashboard-filter-runs.ts), never saved either.
 */
export class SnapshotsService {
  constructor(private readonly deps: SnapshotsDeps) {}

  /** A member's access to a chart picture: the chart read right (404 for outsiders), then its ids. */
  async chartScope(actor: Actor, projectId: number, chartId: number): Promise<ChartPictureScope> {
    const { project } = await this.deps.charts.authorize(actor, projectId, chartId, 'chart:read');
    return { teamId: project.team_id, projectId, chartId };
  }

  /** A member's access to a dashboard picture: the dashboard read right, or the right to run charts with a filter state when there is one. */
  async dashboardScope(actor: Actor, projectId: number, filtered: boolean): Promise<{ teamId: number; projectId: number }> {
    const { project } = await this.deps.projects.authorize(actor, projectId, filtered ? 'chart:query' : 'project:read');
    return { teamId: project.team_id, projectId };
  }

  async chartPicture(scope: ChartPictureScope, options: ChartPictureOptions): Promise<ChartPictureResult> {
    const format = oneOf(options.format, ['png', 'svg'] as const, 'format');
    const theme = oneOf(options.theme, ['light', 'dark'] as const, 'theme', 'light');
    const width = intOption(options.width, 'width', PICTURE_LIMITS.width, PICTURE_LIMITS.width.chartDefault);
    const height = intOption(options.height, 'height', PICTURE_LIMITS.height, PICTURE_LIMITS.height.chartDefault);
    const loaded = await this.deps.charts.loadForRun(scope.teamId, scope.chartId);
    if (!loaded || loaded.chart.project_id !== scope.projectId) throw new NotFoundError('Chart');
    const dashboard = await this.deps.projects.findInTeam(scope.teamId, scope.projectId);
    const [view] = await this.views([loaded.chart], { id: loaded.project.id, team_id: loaded.project.team_id, timezone: loaded.project.timezone }, dashboard);
    const r = await loadRender();
    const picture = await this.measure('chart', format, async () => {
      const pictureOptions = { theme, width, height, timezone: loaded.project.timezone ?? 'UTC' };
      return format === 'svg' ? r.chartSvg(view!, pictureOptions) : r.chartPng(view!, pictureOptions);
    });
    return { contentType: picture.contentType, body: picture.body, width, height, dataUpdatedAt: view!.chartDataUpdated };
  }

  async dashboardPicture(scope: { teamId: number; projectId: number }, options: DashboardPictureOptions): Promise<DashboardPictureResult> {
    const format = oneOf(options.format, ['png', 'pdf'] as const, 'format');
    const theme = oneOf(options.theme, ['light', 'dark'] as const, 'theme', 'light');
    const width = intOption(options.width, 'width', PICTURE_LIMITS.width, PICTURE_LIMITS.width.dashboardDefault);
    const pages = oneOf(options.pages, ['screens', 'single'] as const, 'pages', 'screens');
    const view = await this.dashboardView(scope, options.filters);
    const r = await loadRender();
    const document = await this.measure('dashboard', format, async () => {
      try {
        if (format === 'pdf') return await r.dashboardPdf(view, { theme, width, pages });
        const png = await r.dashboardPng(view, { theme, width });
        return { body: png.body, contentType: png.contentType, pages: 1 };
      } catch (error) {
        if (error instanceof r.PictureTooLargeError) throw ValidationError.field('width', error.message);
        throw error;
      }
    });
    return { contentType: document.contentType, body: document.body, pages: document.pages, dataUpdatedAt: view.dataUpdatedAt };
  }

  /**
   * What a dashboard picture draws, in words and data: its header (with a line per filter of the
   * state), and each chart shown on the report with the filters that narrow it.
   */
  async dashboardView(scope: { teamId: number; projectId: number }, filters?: FilterRunRequest): Promise<DashboardView> {
    const dashboard = await this.deps.projects.loadDashboard(scope.teamId, scope.projectId);
    if (!dashboard) throw new NotFoundError('Project');
    // What the report page shows: the charts on the report.
    const charts = dashboard.Charts.filter((chart) => chart.onReport !== false);
    const project = { id: dashboard.id, team_id: dashboard.team_id, timezone: dashboard.timezone };
    let views: ChartView[];
    let filterLines: string[] = [];
    if (filters !== undefined && hasState(filters)) {
      // Every filter named, so that each card can say which of them narrow it (`filteredBy`).
      const state = { ...filters, filters: named(filters.filters) };
      // Parsed here too, for the header's and the cards' words; the runs parse the same state themselves.
      const parsed = parseFilters(state.filters, 'filters.filters');
      const labels = labelsOf(await this.deps.filters.ofDashboard(dashboard.id));
      filterLines = describeFilters(parsed, parseRuntimeVariables(state.variables, 'filters.variables'), labels);
      const names = new Map<string, string>();
      for (const filter of parsed) if (filter.id !== undefined && !names.has(filter.id)) names.set(filter.id, filterName(filter, labels));
      const failures: ChartFailure[] = [];
      const answers = await this.deps.filterRuns.runCharts(project, charts, state, failures);
      views = charts.map((chart, i) => {
        const answer = answers[i]!;
        if ('error' in answer && !('chartData' in answer)) return viewOf(chart, null, null, answer.error.message);
        const view = viewOf(chart, (answer as Chart).chartData, (answer as Chart).chartDataUpdated ?? null);
        const reached = new Set('filteredBy' in answer ? answer.filteredBy : []);
        const by = [...names].filter(([id]) => reached.has(id)).map(([, name]) => name);
        const notBy = [...names].filter(([id]) => !reached.has(id)).map(([, name]) => name);
        view.filters = { by: [...new Set(by)], notBy: [...new Set(notBy)].filter((name) => !by.includes(name)) };
        return view;
      });
    } else {
      views = await this.views(charts, project, dashboard);
    }
    const team = await this.deps.access.teamSettings(scope.teamId);
    return {
      title: dashboard.dashboardTitle || dashboard.name,
      description: dashboard.description,
      headerBackground: dashboard.backgroundColor,
      headerColour: dashboard.titleColor,
      charts: views,
      dataUpdatedAt: newest(views.map((view) => view.chartDataUpdated)),
      filters: filterLines,
      showBranding: team?.showBranding ?? true,
      timezone: dashboard.timezone ?? 'UTC',
    };
  }

  /**
   * An absolute URL (`BASE_URL/image/<token>`) that serves the picture to anyone holding it until it
   * expires: a chart picture with `chartId`, else the dashboard's. The token names the ids, format,
   * theme and width; whoever calls this has decided the ids may be shown.
   */
  signImageLink(scope: ImageScope, options: ImageLinkOptions): string {
    return this.imageLink(scope, options).url;
  }

  /** The signed link of `signImageLink`, with its path below the API's address and when it expires. */
  imageLink(scope: ImageScope, options: ImageLinkOptions): { url: string; path: string; expiresAt: string } {
    const allowed = scope.chartId === undefined ? (['png', 'pdf'] as const) : (['png', 'svg'] as const);
    const format = oneOf(options.format, allowed, 'format');
    const theme = oneOf(options.theme, ['light', 'dark'] as const, 'theme', 'light');
    const lifetime = intOption(options.expiresInSeconds, 'expiresInSeconds', PICTURE_LIMITS.expiresInSeconds, PICTURE_LIMITS.expiresInSeconds.default);
    const width = options.width === undefined ? undefined : intOption(options.width, 'width', PICTURE_LIMITS.width, PICTURE_LIMITS.width.dashboardDefault);
    const now = Math.floor(this.now().getTime() / 1000);
    const claims = { teamId: scope.teamId, projectId: scope.projectId, ...(scope.chartId === undefined ? {} : { chartId: scope.chartId }), ...(width === undefined ? {} : { width }), format, theme, expiresAt: now + lifetime };
    const path = `image/${this.deps.tokens.issue(claims, now)}`;
    return { url: `${this.deps.baseUrl.replace(/\/+$/, '')}/${path}`, path, expiresAt: new Date(claims.expiresAt * 1000).toISOString() };
  }

  /** The picture a signed link names (`GET /image/{token}`): 401 for a bad or expired link, 404 when what it names is gone. */
  async linkedPicture(token: string): Promise<{ contentType: string; body: Buffer; dataUpdatedAt: string | null }> {
    // Checked on the clock that signed it (the scheduler's, which tests step).
    const claims = await this.deps.tokens.verify(token, this.now());
    if (claims.chartId !== undefined) {
      if (claims.format === 'pdf') throw new NotFoundError('Picture');
      return this.chartPicture({ teamId: claims.teamId, projectId: claims.projectId, chartId: claims.chartId }, { format: claims.format, theme: claims.theme, width: claims.width });
    }
    if (claims.format === 'svg') throw new NotFoundError('Picture');
    return this.dashboardPicture({ teamId: claims.teamId, projectId: claims.projectId }, { format: claims.format, theme: claims.theme, width: claims.width });
  }

  /**
   * Each chart's saved data, or, for one never computed, its data computed now (not saved). Saved
   * data says, as on the report page, when its latest refresh failed or is overdue by the schedules.
   */
  private async views(charts: readonly Chart[], project: { id: number; team_id: number; timezone: string | null }, dashboard: DashboardSchedule | undefined): Promise<ChartView[]> {
    const now = this.now();
    return mapLimited(charts, this.deps.concurrency, async (chart) => {
      if (chart.chartData !== null && chart.chartData !== undefined) {
        const view = viewOf(chart, chart.chartData, chart.chartDataUpdated ?? null);
        if (chart.lastError) view.lastError = { code: chart.lastError.code, at: chart.lastError.at };
        view.refreshOverdue = dashboard ? chartOverdue(chart, dashboard, now) : null;
        return view;
      }
      if (chart.type === 'markdown' || chart.ChartDatasetConfigs.length === 0) return viewOf(chart, null, null);
      try {
        const result = await this.deps.chartRuns.compute({ chart, project }, { persist: false, getCache: true });
        return viewOf(chart, result.chartData, result.chartDataUpdated);
      } catch (error) {
        const message = error instanceof Error && 'statusCode' in error ? error.message : 'This chart could not be computed';
        return viewOf(chart, null, null, message);
      }
    });
  }

  private async measure<T extends { body: Buffer }>(kind: PictureKind, format: string, draw: () => Promise<T> | T): Promise<T> {
    const started = process.hrtime.bigint();
    const result = await draw();
    this.deps.metrics.observe(kind, format, Number(process.hrtime.bigint() - started) / 1e9, result.body.length);
    return result;
  }

  private now(): Date {
    return this.deps.clock?.() ?? new Date();
  }
}

/** The state's filters, each with an id: those sent without one get their place (`#1`, `#2`…). */
function named(filters: unknown): unknown {
  if (!Array.isArray(filters)) return filters;
  return filters.map((filter: unknown, i) => (filter !== null && typeof filter === 'object' && !('id' in filter) ? { ...filter, id: `#${i + 1}` } : filter));
}

/** A field as a person reads it: without the `root[].` of a nested path. */
const fieldName = (field: string) => field.replace(/^root\[\]\./, '');

/** What a card calls a filter, as the report page does: the label of the saved filter it is, else Date, the field, the variable. */
function filterName(filter: RuntimeFilter, labels: ReadonlyMap<string, string>): string {
  const label = labelOf(filter, labels);
  if (label !== undefined) return label;
  if (filter.type === 'date') return 'Date';
  if (filter.type === 'field') return fieldName(filter.field);
  return filter.variable;
}

function hasState(state: FilterRunRequest): boolean {
  const filters = Array.isArray(state.filters) ? state.filters.length : state.filters === undefined || state.filters === null ? 0 : 1;
  const variables = typeof state.variables === 'object' && state.variables !== null ? Object.keys(state.variables).length : 0;
  return filters + variables > 0;
}
