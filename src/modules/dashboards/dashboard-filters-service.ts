import { randomUUID } from 'node:crypto';
import { InvalidChartConfigError, resolveDateRange } from '../../engine/index.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import type { DatasetsService } from '../data/index.js';
import type { ChartsRepository } from './charts-repository.js';
import type { DashboardFilter, DashboardFiltersRepository } from './dashboard-filters-repository.js';
import type { CreateFilterInput, FilterConfiguration, UpdateFilterInput } from './dashboard-filters-schemas.js';
import type { Project } from './projects-repository.js';
import type { ProjectsService } from './projects-service.js';

export interface DashboardFiltersDeps {
  filters: DashboardFiltersRepository;
  projects: ProjectsService;
  charts: ChartsRepository;
  datasets: DatasetsService;
}

const CONFIGURATION = 'body.configuration';

/**
 * A dashboard's filters: who may read and write them (the dashboard's readers and editors), and
 * what a configuration may hold beyond its shape: chart ids of this dashboard, a dataset the
 * caller may read for the dropdown's values, a custom range that makes a range.
 */
export class DashboardFiltersService {
  constructor(private readonly deps: DashboardFiltersDeps) {}

  async list(actor: Actor, projectId: number): Promise<DashboardFilter[]> {
    await this.deps.projects.authorize(actor, projectId, 'project:read');
    return this.deps.filters.listByProject(projectId);
  }

  async get(actor: Actor, projectId: number, filterId: string): Promise<DashboardFilter> {
    await this.deps.projects.authorize(actor, projectId, 'project:read');
    return this.found(await this.deps.filters.find(projectId, filterId.toLowerCase()));
  }

  async create(actor: Actor, projectId: number, input: CreateFilterInput): Promise<DashboardFilter> {
    const { project } = await this.deps.projects.authorize(actor, projectId, 'project:update');
    const configuration = await this.checkConfiguration(actor, project, input.configuration);
    const id = input.id?.toLowerCase() ?? randomUUID();
    if (input.id !== undefined && (await this.deps.filters.idTaken(id))) throw new ConflictError(`body.id ${id} is already the id of a filter`, 'FILTER_ID_TAKEN');
    return this.deps.filters.create(projectId, id, { configuration, onReport: input.onReport ?? false });
  }

  /** `configuration` replaces the stored one as a whole. */
  async update(actor: Actor, projectId: number, filterId: string, input: UpdateFilterInput): Promise<DashboardFilter> {
    const { project } = await this.deps.projects.authorize(actor, projectId, 'project:update');
    const id = filterId.toLowerCase();
    this.found(await this.deps.filters.find(projectId, id));
    const configuration = input.configuration === undefined ? undefined : await this.checkConfiguration(actor, project, input.configuration);
    return this.found(
      await this.deps.filters.update(projectId, id, { ...(configuration !== undefined ? { configuration } : {}), ...(input.onReport !== undefined ? { onReport: input.onReport } : {}) }),
    );
  }

  async delete(actor: Actor, projectId: number, filterId: string): Promise<void> {
    await this.deps.projects.authorize(actor, projectId, 'project:update');
    if (!(await this.deps.filters.delete(projectId, filterId.toLowerCase()))) throw new NotFoundError('Dashboard filter');
  }

  /** Every filter of the dashboard once, in the new order; anything else is a 400 that changes nothing. */
  async reorder(actor: Actor, projectId: number, filterIds: readonly string[]): Promise<DashboardFilter[]> {
    await this.deps.projects.authorize(actor, projectId, 'project:update');
    const current = new Set((await this.deps.filters.listByProject(projectId)).map((f) => f.id));
    const ids = filterIds.map((id) => id.toLowerCase());
    const seen = new Set<string>();
    for (const [i, id] of ids.entries()) {
      if (!current.has(id)) throw ValidationError.field(`body.filterIds.${i}`, 'is not a filter of this dashboard');
      if (seen.has(id)) throw ValidationError.field(`body.filterIds.${i}`, 'is listed twice');
      seen.add(id);
    }
    const missing = [...current].filter((id) => !seen.has(id));
    if (missing.length > 0) throw ValidationError.field('body.filterIds', `must list every filter of the dashboard once; missing ${missing.join(', ')}`);
    await this.deps.filters.reorder(projectId, ids);
    return this.deps.filters.listByProject(projectId);
  }

  /** Every filter of a dashboard, in order, for a caller that has decided access (a dashboard's picture). */
  async ofDashboard(projectId: number): Promise<DashboardFilter[]> {
    return this.deps.filters.listByProject(projectId);
  }

  /** A dashboard's filters shown on shared reports, in order; access was decided by the share link. */
  async onReport(projectId: number): Promise<DashboardFilter[]> {
    return this.deps.filters.listByProject(projectId, { onReport: true });
  }

  private found(filter: DashboardFilter | undefined): DashboardFilter {
    if (!filter) throw new NotFoundError('Dashboard filter');
    return filter;
  }

  /** The configuration as stored: checked against the dashboard and the caller, defaults filled in. */
  private async checkConfiguration(actor: Actor, project: Project, configuration: FilterConfiguration): Promise<FilterConfiguration> {
    if (configuration.type === 'variable') {
      checkVariableValue(configuration.dataType, configuration.value);
      await this.checkValuesFrom(actor, project, configuration.valuesFrom);
      return { ...configuration, allowValueChange: configuration.allowValueChange ?? true };
    }
    if (configuration.charts !== undefined) await this.checkCharts(project.id, configuration.charts);
    if (configuration.type === 'field') {
      await this.checkValuesFrom(actor, project, configuration.valuesFrom);
      return configuration;
    }
    const custom = configuration.preset === undefined || configuration.preset === 'custom';
    if (custom) {
      try {
        resolveDateRange(configuration, project.timezone, new Date());
      } catch (error) {
        const detail = error instanceof InvalidChartConfigError ? error.details?.[0] : undefined;
        if (detail) throw ValidationError.field(`${CONFIGURATION}.${detail.path}`, detail.message);
        throw error;
      }
    }
    return configuration;
  }

  private async checkCharts(projectId: number, charts: readonly number[]): Promise<void> {
    const ours = new Set(await this.deps.charts.ids(projectId));
    charts.forEach((id, i) => {
      if (!ours.has(id)) throw ValidationError.field(`${CONFIGURATION}.charts.${i}`, `${id} is not a chart of this dashboard`);
    });
  }

  /** The dropdown's dataset must be one of the team's that the caller may read; any other id gets the same answer. */
  private async checkValuesFrom(actor: Actor, project: Project, valuesFrom: { datasetId: number } | undefined): Promise<void> {
    if (valuesFrom === undefined) return;
    try {
      await this.deps.datasets.load(actor, project.team_id, valuesFrom.datasetId, 'dataset:read');
    } catch (error) {
      if (error instanceof AppError && (error.statusCode === 403 || error.statusCode === 404)) {
        throw ValidationError.field(`${CONFIGURATION}.valuesFrom.datasetId`, 'is not a dataset of this team that you may read');
      }
      throw error;
    }
  }
}

/** A variable's value has the shape of its type: a list for list types, a single value otherwise (parsing it is the binding's job). */
function checkVariableValue(dataType: string, value: unknown): void {
  if (value === undefined || value === null) return;
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  const ok = dataType.endsWith('[]') ? Array.isArray(value) && value.every(scalar) : scalar(value);
  if (!ok) throw ValidationError.field(`${CONFIGURATION}.value`, dataType.endsWith('[]') ? `must be a list of values for ${dataType}` : `must be a single value for ${dataType}`);
}
