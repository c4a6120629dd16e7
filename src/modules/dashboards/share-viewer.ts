import { resolveDateRange } from '../../engine/index.js';
import { AppError, NotFoundError, RateLimitedError, ValidationError } from '../../errors/index.js';
import type { AccessService, TeamSettings } from '../../platform/access.js';
import type { RuntimeFilter } from '../data/index.js';
import type { Chart, ProjectRef } from './charts-repository.js';
import type { ChartRunResult, ChartRunService } from './chart-runs-service.js';
import { displayOf } from './chart-display.js';
import { publicVisualization } from './chart-visualization.js';
import type { ChartsService } from './charts-service.js';
import { chartOverdue, type DashboardSchedule } from './chart-overdue.js';
import type { DashboardFilter } from './dashboard-filters-repository.js';
import type { PublicDashboardFilterView, PublicFilterConfigurationView, FilterConfiguration } from './dashboard-filters-schemas.js';
import type { DashboardFiltersService } from './dashboard-filters-service.js';
import type { DatasetValues, DatasetValuesService } from '../data/index.js';
import type { Project } from './projects-repository.js';
import type { ProjectsService } from './projects-service.js';
import { shareVariables, viewerFilterState, type ViewerFilterRequest } from './share-filter-state.js';
import { publicChartError, shareErrors } from './sharing-errors.js';
import type { PublicChartView, SharedChartView, SharedDashboardView, SharedFilteredChartsView, SharedFilteredChartView, Theme } from './sharing-public-schemas.js';
import type { SharePolicyRecord, SharingRepository } from './sharing-repository.js';
import type { EntityType } from './sharing-schemas.js';
import type { ShareTokens } from './share-tokens.js';
import { mapLimited } from '../../runtime/map-limited.js';

/**
 * The budget of dashboard password attempts (AttemptBudget in src/platform/rate-limit.ts): one
 * attempt is taken before a password is checked and given back when it was right.
 */
export interface PasswordAttempts {
  take(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
  refund(key: string): Promise<void>;
}

export interface ViewerSettings {
  /** Charts of one dashboard computed at the same time (a report must not flood the sources). */
  concurrency?: number;
}

/** Charts of one dashboard computed at the same time when the settings do not say. */
export const DEFAULT_VIEWER_CONCURRENCY = 3;

export interface ViewRequest {
  token?: string | undefined;
  theme?: Theme | undefined;
  /** Dashboard password, from the `pass` header. */
  password?: string | undefined;
  /** The client address: dashboard password attempts are counted per address and dashboard. */
  client: string;
  /** The raw query string: every parameter but the reserved ones may become a variable. */
  query: Record<string, unknown>;
}

/** A chart that failed to compute for a link, reported to the route for its log. */
export interface ChartFailure {
  chartId: number;
  error: unknown;
}

/** The window of the dashboard password attempt budget (`PLOTLINE_SHARE_PASSWORD_ATTEMPTS` per window). */
export const SHARE_PASSWORD_WINDOW_MS = 15 * 60_000;

interface Entity {
  teamId: number;
  type: EntityType;
  id: number;
}

export interface ShareViewerDeps {
  sharing: SharingRepository;
  tokens: ShareTokens;
  projects: ProjectsService;
  charts: ChartsService;
  filters: DashboardFiltersService;
  /** Distinct values of a dataset's field, for the dropdowns of report filters. */
  values: DatasetValuesService;
  access: AccessService;
  computer: ChartRunService;
  passwordAttempts: PasswordAttempts;
  settings: ViewerSettings;
}

/**
 * The public side of sharing: decides access for a share link (token, public flag, password) and
 * assembles what the viewer may see. Locked policy params always reach the charts and nothing a
 * viewer sends moves them; URL params only when the policy allows them; on the filter routes, the
 * states of the report's own filters (share-filter-state.ts). Nothing else becomes a variable.
 */
export class ShareViewer {
  constructor(private readonly deps: ShareViewerDeps) {}

  /** `GET /chart/share/{share_string}`. */
  async chart(shareString: string, request: ViewRequest, failures: ChartFailure[] = []): Promise<SharedChartView> {
    const { loaded, policy, team } = await this.admitChart(shareString, request);
    // The chart's dashboard says how often it refreshes (for the overdue mark), not the link.
    const dashboard = await this.deps.projects.findInTeam(loaded.project.team_id, loaded.chart.project_id);
    const view = await this.renderShared(loaded, policy, request, failures, dashboard);
    return { ...view, showBranding: team?.showBranding ?? true, allowExport: team?.allowReportExport === true, theme: request.theme ?? 'os' };
  }

  /**
   * A chart shown through a chart link, or through a dashboard link (one of its report charts),
   * for an export. Whether the team allows exports is decided right after the link itself is
   * checked and before a dashboard password is looked at, so a route the caller may not use
   * never tells a right password from a wrong one.
   */
  async exportable(link: { shareString: string } | { brewName: string; chartId: number }, request: ViewRequest): Promise<PublicChartView> {
    if ('shareString' in link) {
      const { loaded, policy } = await this.admitChart(link.shareString, request, assertExportAllowed);
      return this.renderShared(loaded, policy, request, []);
    }
    const { found, policy } = await this.admitDashboard({ brewName: link.brewName }, request, assertExportAllowed);
    const dashboard = await this.deps.projects.loadDashboard(found.team_id, found.id);
    const chart = dashboard?.Charts.find((c) => c.id === link.chartId && c.onReport);
    if (!dashboard || !chart) throw new NotFoundError('Chart');
    const project = { id: dashboard.id, team_id: dashboard.team_id, timezone: dashboard.timezone };
    const { view, error } = await this.render({ chart, project }, { variables: shareVariables(policy, request.query) }, []);
    if (error) throw error;
    return view;
  }

  /** `GET /project/dashboard/{brewName}`: the report with its `onReport` charts and filters. */
  async dashboard(brewName: string, request: ViewRequest, failures: ChartFailure[] = []): Promise<SharedDashboardView> {
    const { found, policy, team } = await this.admitDashboard({ brewName }, request);
    const dashboard = await this.deps.projects.loadDashboard(found.team_id, found.id);
    if (!dashboard) throw new NotFoundError('Dashboard');
    // Without a token there is no policy, so no variables: a public report shows its saved data.
    const variables = shareVariables(policy, request.query);
    const onReport = dashboard.Charts.filter((chart) => chart.onReport);
    const project = { id: dashboard.id, team_id: dashboard.team_id, timezone: dashboard.timezone };
    const Charts = await mapLimited(onReport, this.concurrency, async (chart) => (await this.render({ chart, project }, { variables }, failures, dashboard)).view);
    const filters = (await this.deps.filters.onReport(found.id)).filter((filter) => !pinnedByPolicy(filter, policy));
    const DashboardFilters = filters.map((filter) => publicFilter(filter, dashboard.timezone, new Date()));
    return { ...dashboardFields(dashboard), showBranding: team?.showBranding ?? true, allowExport: team?.allowReportExport === true, theme: request.theme ?? 'os', Charts, DashboardFilters };
  }

  /**
   * `POST /project/{pid}/chart/{id}/filter` for a viewer of a shared report: the access of the
   * report (token, public flag, password), one of its `onReport` charts, computed for the viewer's
   * filter state (never saved, through the result cache).
   */
  async filterChart(projectId: number, chartId: number, request: ViewRequest, input: ViewerFilterRequest, failures: ChartFailure[] = []): Promise<SharedFilteredChartView> {
    const { found, policy } = await this.admitDashboard({ projectId }, request);
    const loaded = await this.deps.charts.loadForRun(found.team_id, chartId);
    if (!loaded || loaded.chart.project_id !== found.id || !loaded.chart.onReport) throw new NotFoundError('Chart');
    const state = viewerFilterState(await this.deps.filters.onReport(found.id), policy, request.query, input);
    const { view, error, result } = await this.render(loaded, state, failures);
    if (error) throw error;
    return { ...view, variablesWithoutValue: result?.variablesWithoutValue ?? [], filteredBy: result?.filteredBy ?? [], ...(result ? { cacheStatus: result.cache } : {}) };
  }

  /**
   * `POST /project/dashboard/{brewName}/filter`: every `onReport` chart (or those of `chartIds`)
   * computed for the viewer's filter state, a few at a time; a chart that fails is an error entry,
   * the others still answer.
   */
  async filterDashboard(
    brewName: string,
    request: ViewRequest,
    input: ViewerFilterRequest & { chartIds?: readonly number[] | undefined },
    failures: ChartFailure[] = [],
  ): Promise<SharedFilteredChartsView> {
    const { found, policy } = await this.admitDashboard({ brewName }, request);
    const dashboard = await this.deps.projects.loadDashboard(found.team_id, found.id);
    if (!dashboard) throw new NotFoundError('Dashboard');
    const state = viewerFilterState(await this.deps.filters.onReport(found.id), policy, request.query, input);
    const onReport = dashboard.Charts.filter((chart) => chart.onReport);
    const charts = input.chartIds === undefined ? onReport : input.chartIds.map((id, i) => onReport.find((c) => c.id === id) ?? notOnReport(i));
    const project = { id: dashboard.id, team_id: dashboard.team_id, timezone: dashboard.timezone };
    const answers = await mapLimited(charts, this.concurrency, async (chart) => {
      const { view, error, result } = await this.render({ chart, project }, state, failures);
      if (error) return { id: chart.id, error: { code: error.code, message: error.message } };
      return { ...view, variablesWithoutValue: result?.variablesWithoutValue ?? [], filteredBy: result?.filteredBy ?? [], ...(result ? { cacheStatus: result.cache } : {}) };
    });
    return { charts: answers };
  }

  /**
   * `GET /project/dashboard/{brewName}/filter/{fid}/values`: the values a report filter's dropdown
   * offers, for whoever may open the report (token, password as for the report). Only a filter on
   * the report with `valuesFrom` has them, and only that filter's dataset and field are read; a
   * variable filter the link's policy pins is not the viewer's to change, so it offers nothing.
   */
  async filterValues(brewName: string, filterId: string, request: ViewRequest, options: { search?: string | undefined; limit?: number | undefined }): Promise<DatasetValues> {
    const { found, policy } = await this.admitDashboard({ brewName }, request);
    const filter = (await this.deps.filters.onReport(found.id)).find((f) => f.id === filterId);
    if (!filter || pinnedByPolicy(filter, policy)) throw new NotFoundError('Dashboard filter');
    const configuration = filter.configuration;
    const source = configuration.type === 'date' ? undefined : configuration.valuesFrom;
    if (!source) throw ValidationError.field('params.fid', 'is a filter without a list of values (valuesFrom)');
    const values = await this.deps.values.distinct(found.team_id, source.datasetId, source.field, options);
    // The viewer asked by filter, not by field: the answer names the filter's field as the report shows it.
    return { ...values, field: source.field };
  }

  private get concurrency(): number {
    return this.deps.settings.concurrency ?? DEFAULT_VIEWER_CONCURRENCY;
  }

  /** A chart link: its policy and chart, then its token (or the chart's public flag); `gate` decides on the team's settings after that. */
  private async admitChart(
    shareString: string,
    request: ViewRequest,
    gate?: (team: TeamSettings | undefined) => void,
  ): Promise<{ loaded: { chart: Chart; project: ProjectRef }; policy: SharePolicyRecord; team: TeamSettings | undefined }> {
    const policy = await this.deps.sharing.findByShareString(shareString);
    if (!policy || policy.entity_type !== 'Chart') throw new NotFoundError('Share link');
    const loaded = await this.deps.charts.loadForRun(policy.team_id, policy.entity_id);
    if (!loaded) throw new NotFoundError('Share link');
    const entity: Entity = { teamId: policy.team_id, type: 'Chart', id: loaded.chart.id };
    if (request.token !== undefined && request.token !== '') {
      const granted = await this.authorizeToken(request.token, entity, policy);
      // The link's share string and the token must name the same policy.
      if (granted.id !== policy.id) throw shareErrors.tokenInvalid();
    } else {
      if (!loaded.chart.public) throw shareErrors.tokenRequired();
      assertPolicyOpen(policy);
    }
    const team = await this.deps.access.teamSettings(policy.team_id);
    gate?.(team);
    return { loaded, policy, team };
  }

  /** A chart of a chart link with the link's variables; a chart that cannot be computed is an error answer. */
  private async renderShared(
    loaded: { chart: Chart; project: ProjectRef },
    policy: SharePolicyRecord,
    request: ViewRequest,
    failures: ChartFailure[],
    dashboard?: DashboardSchedule,
  ): Promise<PublicChartView> {
    const { view, error } = await this.render(loaded, { variables: shareVariables(policy, request.query) }, failures, dashboard);
    if (error) throw error;
    return view;
  }

  /**
   * A dashboard link: the dashboard, its token (or its public flag), then `gate` on the team's
   * settings, then its password. A token does not replace the password: both are asked for when
   * both are set.
   */
  private async admitDashboard(
    link: { brewName: string } | { projectId: number },
    request: ViewRequest,
    gate?: (team: TeamSettings | undefined) => void,
  ): Promise<{ found: Project; policy: SharePolicyRecord | undefined; team: TeamSettings | undefined }> {
    const found = 'brewName' in link ? await this.deps.projects.findByBrewName(link.brewName) : await this.deps.projects.findForLink(link.projectId);
    if (!found) throw new NotFoundError('Dashboard');
    let policy: SharePolicyRecord | undefined;
    if (request.token !== undefined && request.token !== '') {
      policy = await this.authorizeToken(request.token, { teamId: found.team_id, type: 'Project', id: found.id });
    } else if (!found.public) {
      throw shareErrors.tokenRequired();
    }
    const team = await this.deps.access.teamSettings(found.team_id);
    gate?.(team);
    if (found.passwordProtected) await this.checkPassword(found, request);
    return { found, policy, team };
  }

  /**
   * One budget of password attempts per dashboard and client address, whichever route carries the
   * password. An attempt is spent before the check (so parallel guesses cannot overrun the
   * budget) and given back when the password was right; once the budget is spent, no password is
   * checked at all until the window renews, so a right one answers 429 like a wrong one.
   */
  private async checkPassword(found: { id: number; team_id: number }, request: ViewRequest): Promise<void> {
    if (request.password === undefined || request.password === '') throw shareErrors.passwordRequired();
    const key = `${found.id}|${request.client}`;
    const attempt = await this.deps.passwordAttempts.take(key);
    if (!attempt.allowed) throw new RateLimitedError(attempt.retryAfterSeconds);
    if (!(await this.deps.projects.checkPassword(found.team_id, found.id, request.password))) throw shareErrors.passwordInvalid();
    await this.deps.passwordAttempts.refund(key);
  }

  /**
   * Every check a share token goes through on every use: signature, algorithm, audience and `exp`
   * (in ShareTokens), then the policy it names: still there, for this very entity, not disabled,
   * not past `expires_at`, and still at the token's revision (revoke bumps it).
   */
  private async authorizeToken(token: string, entity: Entity, loaded?: SharePolicyRecord): Promise<SharePolicyRecord> {
    const claims = await this.deps.tokens.verify(token);
    if (claims.subject.type !== entity.type || claims.subject.id !== entity.id) throw shareErrors.tokenInvalid();
    // The chart route has just read the policy by its share string: no second read when it is the same.
    const policy = loaded?.id === claims.policyId ? loaded : await this.deps.sharing.findById(claims.policyId);
    if (!policy) throw shareErrors.policyDeleted();
    if (policy.entity_type !== entity.type || policy.entity_id !== entity.id || policy.team_id !== entity.teamId) throw shareErrors.tokenInvalid();
    assertPolicyOpen(policy);
    if (policy.revision !== claims.version) throw shareErrors.tokenRevoked();
    return policy;
  }

  /**
   * The saved data when no variable or filter applies; otherwise a run with them, never saved,
   * through the result cache of chart runs (its key holds every version the answer depends on).
   * Saved data says when its latest refresh failed, and, given its `dashboard`, when it is overdue.
   */
  private async render(
    loaded: { chart: Chart; project: ProjectRef },
    inputs: { variables: Record<string, unknown>; filters?: RuntimeFilter[] },
    failures: ChartFailure[],
    dashboard?: DashboardSchedule,
  ): Promise<Rendered> {
    const { chart } = loaded;
    const { variables, filters = [] } = inputs;
    if ((Object.keys(variables).length === 0 && filters.length === 0) || chart.type === 'markdown' || chart.ChartDatasetConfigs.length === 0) {
      const view = publicChart(chart, chart.chartData, chart.chartDataUpdated);
      // The failure's code and time, never the source's words.
      if (chart.lastError) view.lastError = { code: chart.lastError.code, at: chart.lastError.at };
      const overdue = dashboard ? chartOverdue(chart, dashboard, new Date()) : null;
      if (overdue) view.refreshOverdue = overdue;
      return { view };
    }
    try {
      const result = await this.deps.computer.compute(loaded, { variables, filters, persist: false, getCache: true });
      return { view: publicChart(chart, result.chartData, result.chartDataUpdated), result };
    } catch (cause) {
      failures.push({ chartId: chart.id, error: cause });
      // Never fall back to the saved data: it was computed without the link's locked params.
      const error = publicChartError(cause);
      return { view: { ...publicChart(chart, null, null), error: { code: error.code, message: error.message } }, error };
    }
  }
}

/** A chart as a link shows it; when it could not be computed, the error a single-chart route answers. */
interface Rendered {
  view: PublicChartView;
  error?: AppError;
  /** The run, when the chart was computed rather than shown with its saved data. */
  result?: ChartRunResult;
}

function notOnReport(index: number): never {
  throw ValidationError.field(`body.chartIds.${index}`, 'is not a chart of this report');
}

/**
 * A variable filter whose variable the link's policy pins: never offered to the link's viewers,
 * who cannot change it (403 SHARE_PARAM_LOCKED), and whose value, a policy param, stays private.
 */
function pinnedByPolicy(filter: DashboardFilter, policy: SharePolicyRecord | undefined): boolean {
  const configuration = filter.configuration;
  return configuration.type === 'variable' && (policy?.params ?? []).some((param) => param.key !== '' && param.key === configuration.variable);
}

/** A report filter as viewers see it: its dropdown's field but not its dataset; a date filter's range as it applies now. */
function publicFilter(filter: DashboardFilter, timezone: string | null, now: Date): PublicDashboardFilterView {
  const view: PublicDashboardFilterView = { id: filter.id, configuration: publicConfiguration(filter.configuration), position: filter.position };
  if (filter.configuration.type !== 'date') return view;
  try {
    return { ...view, resolved: resolveDateRange(filter.configuration, timezone, now) };
  } catch {
    // A custom range that no longer makes one (its dashboard's zone changed…) shows without it.
    return view;
  }
}

function publicConfiguration(configuration: FilterConfiguration): PublicFilterConfigurationView {
  if (configuration.type === 'date') return configuration;
  const { valuesFrom, ...rest } = configuration;
  return valuesFrom === undefined ? rest : { ...rest, valuesFrom: { field: valuesFrom.field } };
}

function assertExportAllowed(team: TeamSettings | undefined): void {
  if (team?.allowReportExport !== true) throw shareErrors.exportNotAllowed();
}

function assertPolicyOpen(policy: SharePolicyRecord): void {
  if (policy.visibility === 'disabled') throw shareErrors.policyDisabled();
  if (policy.expires_at !== null && Date.parse(policy.expires_at) <= Date.now()) throw shareErrors.policyExpired();
}

/** The display projection of a chart: its identity, data and display options, picked by name so nothing else can slip through. */
function publicChart(chart: Chart, chartData: unknown, chartDataUpdated: string | null): PublicChartView {
  return {
    id: chart.id,
    name: chart.name,
    type: chart.type,
    subType: chart.subType,
    chartData: chartData ?? null,
    chartDataUpdated,
    ...displayOf(chart),
    visualization: publicVisualization(chart.visualization),
    ChartDatasetConfigs: chart.ChartDatasetConfigs.map((config) => ({
      id: config.id,
      legend: config.legend,
      datasetColor: config.datasetColor,
      fillColor: config.fillColor ?? null,
      fill: config.fill,
      multiFill: config.multiFill,
      pointRadius: config.pointRadius,
      order: config.order,
      goal: config.goal,
      formula: config.formula,
    })),
  };
}

function dashboardFields(project: Project): Omit<SharedDashboardView, 'showBranding' | 'allowExport' | 'theme' | 'Charts' | 'DashboardFilters'> {
  return {
    name: project.name,
    brewName: project.brewName,
    dashboardTitle: project.dashboardTitle,
    description: project.description,
    logo: project.logo,
    logoLink: project.logoLink,
    backgroundColor: project.backgroundColor,
    titleColor: project.titleColor,
    headerCode: project.headerCode,
    footerCode: project.footerCode,
    timezone: project.timezone,
  };
}
