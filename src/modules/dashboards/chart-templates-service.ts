import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import { writableKeys } from '../../platform/write-bodies.js';
import type { Actor } from '../../platform/actor.js';
import { isTeamWide, ownsProject, projectScope, type Membership } from '../../platform/authorization.js';
import type { Chart } from './charts-repository.js';
import type { ChartsService } from './charts-service.js';
import { CreateChart, CreateChartDatasetConfig, UpdateChartDatasetConfig, type QuickCreateChartInput } from './charts-schemas.js';
import { Visualization, type VisualizationInput } from './chart-visualization-schemas.js';
import type { ChartTemplateRecord, ChartTemplatesRepository, TemplateModel } from './chart-templates-repository.js';
import type { ChartTemplateView, SaveChartTemplateInput, UseChartTemplateInput } from './chart-templates-schemas.js';
import type { DashboardTemplatesService } from './dashboard-templates-service.js';
import type { ProjectsService } from './projects-service.js';

/** The chart a template makes: a create body without its spec (kept apart) and without what belongs to one dashboard. */
const TemplateChart = Type.Omit(CreateChart, ['visualization', 'dashboardOrder', 'layout', 'public', 'shareable']);
const TemplateConfig = Type.Omit(CreateChartDatasetConfig, ['id', 'templateBindingId']);
// Only the writable fields are kept: the read-only keys a body accepts (ids, timestamps) are no part of a template.
const CHART_KEYS = writableKeys(TemplateChart);
const CONFIG_KEYS = [...writableKeys(UpdateChartDatasetConfig), 'bindingId'];

/** Chartbrew's built-in source templates (Stripe, Plausible…): Plotline keeps only a team's own. */
const CUSTOM = 'custom';

export interface ChartTemplatesDeps {
  templates: ChartTemplatesRepository;
  charts: ChartsService;
  projects: ProjectsService;
  access: AccessService;
  /** Dashboard templates share the id space: `custom` with a dashboard template's id makes its charts. */
  dashboardTemplates: Pick<DashboardTemplatesService, 'apply'>;
}

/**
 * Charts saved as reusable templates, per team. Roles are those of charts: whoever may read the
 * dashboard a template was saved from may see it, whoever may write charts there may save or
 * delete it, and a chart made from one is a quick-create (chart:write on the target dashboard, each
 * dataset of the team and, for project roles, of their projects).
 */
export class ChartTemplatesService {
  constructor(private readonly deps: ChartTemplatesDeps) {}

  async list(actor: Actor, teamId: number, source?: string): Promise<ChartTemplateView[]> {
    const membership = await this.deps.access.require(actor, teamId, 'chart:read');
    if (source !== undefined && source !== CUSTOM) return [];
    return (await this.deps.templates.list(teamId, projectScope(membership))).map(view);
  }

  async get(actor: Actor, teamId: number, id: number): Promise<ChartTemplateView> {
    const membership = await this.deps.access.require(actor, teamId, 'chart:read');
    return view(await this.visible(membership, teamId, id));
  }

  async delete(actor: Actor, teamId: number, id: number): Promise<void> {
    const membership = await this.deps.access.require(actor, teamId, 'chart:read');
    await this.visible(membership, teamId, id);
    await this.deps.access.require(actor, teamId, 'chart:write');
    if (!(await this.deps.templates.delete(teamId, id))) throw new NotFoundError('Chart template');
  }

  /** `POST /project/{id}/template`: a chart of the dashboard saved as a template of its team. */
  async save(actor: Actor, projectId: number, input: SaveChartTemplateInput): Promise<ChartTemplateView> {
    const { chart, project, membership } = await this.deps.charts.authorize(actor, projectId, input.chart_id, 'chart:write');
    const name = input.name?.trim() || chart.name || 'Chart';
    const record = await this.deps.templates.create({
      team_id: project.team_id,
      project_id: projectId,
      created_by: membership.userId,
      name,
      description: input.description ?? null,
      model: modelOf(chart),
    });
    return view(record);
  }

  /**
   * `POST /project/{id}/template/{template}`: a chart made from a template on the dashboard
   * (Chartbrew's route: `custom` with `template_id`, or the id itself in the path).
   */
  async use(actor: Actor, projectId: number, template: string, body: UseChartTemplateInput): Promise<Chart[]> {
    const id = template === CUSTOM ? (body?.template_id ?? undefined) : /^[1-9]\d{0,9}$/.test(template) ? Number(template) : undefined;
    if (template === CUSTOM && id === undefined) throw ValidationError.field('body.template_id', 'is required with the custom template');
    if (id === undefined) {
      throw ValidationError.field('params.template', "is not a template of this team: Chartbrew's built-in source templates are not part of Plotline; use custom with the id of a saved chart or dashboard template");
    }
    const { project, membership } = await this.deps.projects.authorize(actor, projectId, 'chart:write');
    const record = await this.deps.templates.find(project.team_id, id);
    if (!record) {
      const made = await this.deps.dashboardTemplates.apply(actor, projectId, id, body?.charts);
      if (made === undefined) throw new NotFoundError('Template');
      return made;
    }
    if (body?.charts !== undefined) throw ValidationError.field('body.charts', 'picks charts of a dashboard template; this is a chart template');
    const visible = await this.visible(membership, project.team_id, record.id);
    return [await this.deps.charts.quickCreate(actor, projectId, bodyOf(visible), `template ${visible.id}`)];
  }

  /** A template the membership may see: saved from one of its dashboards (any, for team-wide roles). */
  private async visible(membership: Membership, teamId: number, id: number): Promise<ChartTemplateRecord> {
    const record = await this.deps.templates.find(teamId, id);
    const seen = record && (record.project_id === null ? isTeamWide(membership.role) : ownsProject(membership, record.project_id));
    if (!record || !seen) throw new NotFoundError('Chart template');
    return record;
  }
}

/** What a template keeps of a chart: its fields, its configs (each named `binding-N`) and its spec, its layers naming them so. */
export function modelOf(chart: Chart): TemplateModel {
  const binding = new Map(chart.ChartDatasetConfigs.map((config, index) => [config.id, `binding-${index + 1}`]));
  const configs = chart.ChartDatasetConfigs.map((config) => ({ ...pick(config, CONFIG_KEYS), bindingId: binding.get(config.id) }));
  const visualization = {
    ...chart.visualization,
    layers: chart.visualization.layers.map((layer) => ({ ...layer, bindingId: layer.bindingId === null ? null : (binding.get(layer.bindingId) ?? null) })),
  };
  return { chart: pick(chart, CHART_KEYS), chartDatasetConfigs: configs, visualization };
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

function bodyOf(record: ChartTemplateRecord): QuickCreateChartInput {
  return quickCreateBody(record.model, record.name, `Chart template ${record.id}`);
}

/**
 * The quick-create body a template model holds, checked against the body schemas (a stored
 * template is never trusted blindly). `name` is the chart's name when the model has none.
 */
export function quickCreateBody(model: TemplateModel, name: string, what: string): QuickCreateChartInput {
  const { chart, chartDatasetConfigs, visualization } = model;
  const withName = { ...chart, name: typeof chart['name'] === 'string' && chart['name'] !== '' ? chart['name'] : name };
  if (!Value.Check(TemplateChart, withName)) throw new BadRequestError(`${what} holds a chart Plotline cannot create`, 'TEMPLATE_INVALID');
  const configs = chartDatasetConfigs.map((config) => {
    if (!Value.Check(TemplateConfig, config)) throw new BadRequestError(`${what} holds a dataset config Plotline cannot create`, 'TEMPLATE_INVALID');
    return config;
  });
  const spec: VisualizationInput | undefined = visualization !== null && Value.Check(Visualization, visualization) ? visualization : undefined;
  return { ...withName, chartDatasetConfigs: configs, ...(spec ? { visualization: spec } : {}) };
}

function view(record: ChartTemplateRecord): ChartTemplateView {
  const { model } = record;
  const visualization = model.visualization;
  return {
    id: record.id,
    team_id: record.team_id,
    project_id: record.project_id,
    name: record.name,
    description: record.description,
    source: 'custom',
    slug: String(record.id),
    chart: model.chart,
    chartDatasetConfigs: model.chartDatasetConfigs,
    visualization: isSpec(visualization) ? visualization : { version: 2, status: 'orphan', layers: [], settings: {}, metadata: {} },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function isSpec(value: unknown): value is ChartTemplateView['visualization'] {
  return typeof value === 'object' && value !== null && 'layers' in value && Array.isArray(value.layers);
}
