import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { isTeamWide, ownsProject, projectScope, type Membership } from '../../platform/authorization.js';
import type { Chart } from './charts-repository.js';
import type { ChartsService } from './charts-service.js';
import type { QuickCreateChartInput } from './charts-schemas.js';
import { modelOf, quickCreateBody } from './chart-templates-service.js';
import type { DashboardTemplateChart, DashboardTemplateModel, DashboardTemplateRecord, DashboardTemplatesRepository } from './dashboard-templates-repository.js';
import type {
  CreateDashboardTemplateInput,
  DashboardTemplateModelView,
  DashboardTemplateView,
  UpdateDashboardTemplateInput,
} from './dashboard-templates-schemas.js';
import type { ProjectsService } from './projects-service.js';

export interface DashboardTemplatesDeps {
  templates: DashboardTemplatesRepository;
  charts: ChartsService;
  projects: ProjectsService;
  access: AccessService;
}

/**
 * Every chart of a dashboard saved as a template of its team (Chartbrew's `/team/{id}/template`),
 * and made into charts again on any dashboard of the team. The charts draw the team's own datasets
 * (Chartbrew's templates copied connections; here nothing but charts is made). Roles are those of
 * chart templates: whoever may read the dashboard it was saved from sees it (team-wide roles see
 * them all), whoever may write charts there saves, renames or deletes it, and making charts needs
 * chart rights on the target dashboard and each dataset among the caller's.
 */
export class DashboardTemplatesService {
  constructor(private readonly deps: DashboardTemplatesDeps) {}

  async list(actor: Actor, teamId: number): Promise<DashboardTemplateView[]> {
    const membership = await this.deps.access.require(actor, teamId, 'chart:read');
    return (await this.deps.templates.list(teamId, projectScope(membership))).map(view);
  }

  async get(actor: Actor, teamId: number, id: number): Promise<DashboardTemplateView> {
    const membership = await this.deps.access.require(actor, teamId, 'chart:read');
    return view(await this.visible(membership, teamId, id));
  }

  /** `GET /team/{id}/template/generate/{project_id}`: the model a template of the dashboard would hold, nothing stored. */
  async generate(actor: Actor, teamId: number, projectId: number): Promise<DashboardTemplateModelView> {
    return modelView(await this.modelOfDashboard(actor, teamId, projectId, 'chart:read'));
  }

  async create(actor: Actor, teamId: number, input: CreateDashboardTemplateInput): Promise<DashboardTemplateView> {
    const model = await this.modelOfDashboard(actor, teamId, input.project_id, 'chart:write', 'body.project_id');
    const membership = await this.deps.access.require(actor, teamId, 'chart:write');
    const record = await this.deps.templates.create({
      team_id: teamId,
      project_id: input.project_id,
      created_by: membership.userId,
      name: input.name.trim() || 'Dashboard',
      description: input.description ?? null,
      model,
    });
    return view(record);
  }

  async update(actor: Actor, teamId: number, id: number, input: UpdateDashboardTemplateInput): Promise<DashboardTemplateView> {
    await this.writable(actor, teamId, id);
    const fields = {
      ...(input.name !== undefined ? { name: input.name.trim() || 'Dashboard' } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
    };
    if (!(await this.deps.templates.update(teamId, id, fields))) throw new NotFoundError('Template');
    return this.get(actor, teamId, id);
  }

  async delete(actor: Actor, teamId: number, id: number): Promise<void> {
    await this.writable(actor, teamId, id);
    if (!(await this.deps.templates.delete(teamId, id))) throw new NotFoundError('Template');
  }

  /**
   * Makes the template's charts (those whose `tid` is in `picked`, else all) on the dashboard, in
   * one transaction: all of them or none. On a dashboard that has charts already, the template's
   * layout goes below them, its charts keeping their places among themselves.
   */
  async apply(actor: Actor, projectId: number, id: number, picked: readonly number[] | undefined): Promise<Chart[] | undefined> {
    const { project, membership } = await this.deps.projects.authorize(actor, projectId, 'chart:write');
    const record = await this.deps.templates.find(project.team_id, id);
    if (!record) return undefined;
    if (!seenBy(membership, record)) throw new NotFoundError('Template');
    const charts = pick(record.model.charts, picked);
    const existing = await this.deps.charts.list(actor, projectId);
    const below = placeBelow(existing.map((chart) => chart.layout), charts.map((chart) => chart.layout));
    const bodies: QuickCreateChartInput[] = charts.map((chart, index) => {
      const body = quickCreateBody(chart, `Chart ${chart.tid + 1}`, `Template ${record.id} chart ${chart.tid}`);
      const layout = below[index];
      return layout === undefined ? body : { ...body, layout };
    });
    return this.deps.charts.quickCreateMany(actor, projectId, bodies, (index) => `template ${record.id}.charts.${charts[index]!.tid}`);
  }

  /** The template's model for a dashboard of the team (a dashboard of another team is a 404, as an unknown one). */
  private async modelOfDashboard(actor: Actor, teamId: number, projectId: number, action: 'chart:read' | 'chart:write', at?: string): Promise<DashboardTemplateModel> {
    const { project } = await this.deps.projects.authorize(actor, projectId, action);
    if (project.team_id !== teamId) throw new NotFoundError('Project');
    const charts = await this.deps.charts.list(actor, projectId);
    if (charts.length === 0 && at !== undefined) throw ValidationError.field(at, 'is a dashboard without charts: there is nothing to keep as a template');
    return { charts: charts.map((chart, tid): DashboardTemplateChart => ({ ...modelOf(chart), tid, layout: chart.layout ?? null })) };
  }

  private async writable(actor: Actor, teamId: number, id: number): Promise<DashboardTemplateRecord> {
    const membership = await this.deps.access.require(actor, teamId, 'chart:read');
    const record = await this.visible(membership, teamId, id);
    await this.deps.access.require(actor, teamId, 'chart:write');
    return record;
  }

  private async visible(membership: Membership, teamId: number, id: number): Promise<DashboardTemplateRecord> {
    const record = await this.deps.templates.find(teamId, id);
    if (!record || !seenBy(membership, record)) throw new NotFoundError('Template');
    return record;
  }
}

/** Saved from one of the membership's dashboards (any, for team-wide roles). */
function seenBy(membership: Membership, record: DashboardTemplateRecord): boolean {
  return record.project_id === null ? isTeamWide(membership.role) : ownsProject(membership, record.project_id);
}

function pick(charts: readonly DashboardTemplateChart[], picked: readonly number[] | undefined): DashboardTemplateChart[] {
  if (picked === undefined) return [...charts];
  if (picked.length === 0) throw ValidationError.field('body.charts', 'picks no chart: name at least one chart of the template by its tid');
  const byTid = new Map(charts.map((chart) => [chart.tid, chart]));
  return picked.map((tid, index) => {
    const chart = byTid.get(tid);
    if (!chart) throw ValidationError.field(`body.charts.${index}`, `is not a chart of the template (its tids are ${charts.map((c) => c.tid).join(', ')})`);
    return chart;
  });
}

type Box = [number, number, number, number];

function boxes(layout: unknown): Map<string, Box> {
  const found = new Map<string, Box>();
  if (typeof layout !== 'object' || layout === null) return found;
  for (const [breakpoint, box] of Object.entries(layout)) {
    if (Array.isArray(box) && box.length === 4 && box.every((n) => typeof n === 'number' && Number.isFinite(n))) found.set(breakpoint, box as Box);
  }
  return found;
}

/**
 * The template's layouts moved down, per breakpoint, so that its highest chart starts where the
 * dashboard's charts end. A chart without a usable layout gets none (the dashboard places it).
 */
export function placeBelow(existing: readonly unknown[], template: readonly unknown[]): (Record<string, Box> | undefined)[] {
  const bottom = new Map<string, number>();
  for (const layout of existing) {
    for (const [breakpoint, [, y, , h]] of boxes(layout)) bottom.set(breakpoint, Math.max(bottom.get(breakpoint) ?? 0, y + h));
  }
  const top = new Map<string, number>();
  for (const layout of template) {
    for (const [breakpoint, [, y]] of boxes(layout)) top.set(breakpoint, Math.min(top.get(breakpoint) ?? y, y));
  }
  return template.map((layout) => {
    const found = boxes(layout);
    if (found.size === 0) return undefined;
    const moved: Record<string, Box> = {};
    for (const [breakpoint, [x, y, w, h]] of found) moved[breakpoint] = [x, y - (top.get(breakpoint) ?? 0) + (bottom.get(breakpoint) ?? 0), w, h];
    return moved;
  });
}

function modelView(model: DashboardTemplateModel): DashboardTemplateModelView {
  const datasetIds = new Set<number>();
  const charts = model.charts.map((chart) => {
    for (const config of chart.chartDatasetConfigs) if (typeof config['dataset_id'] === 'number') datasetIds.add(config['dataset_id']);
    const visualization = chart.visualization;
    return {
      tid: chart.tid,
      name: typeof chart.chart['name'] === 'string' ? chart.chart['name'] : `Chart ${chart.tid + 1}`,
      type: typeof chart.chart['type'] === 'string' ? chart.chart['type'] : 'line',
      chart: chart.chart,
      layout: chart.layout ?? null,
      ChartDatasetConfigs: chart.chartDatasetConfigs,
      visualization: isSpec(visualization) ? visualization : ORPHAN_SPEC,
    };
  });
  return { Charts: charts, Datasets: [...datasetIds].map((id) => ({ id })), Connections: [] };
}

function view(record: DashboardTemplateRecord): DashboardTemplateView {
  return {
    id: record.id,
    team_id: record.team_id,
    project_id: record.project_id,
    name: record.name,
    description: record.description,
    model: modelView(record.model),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

type Spec = DashboardTemplateView['model']['Charts'][number]['visualization'];
const ORPHAN_SPEC: Spec = { version: 2, status: 'orphan', layers: [], settings: {}, metadata: {} };

function isSpec(value: unknown): value is Spec {
  return typeof value === 'object' && value !== null && 'layers' in value && Array.isArray(value.layers);
}
