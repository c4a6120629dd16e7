import { Type, type Static, type TSchema } from 'typebox';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { ChartVisualization } from './chart-visualization-schemas.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One chart of a dashboard template, in the shape of Chartbrew's template model. */
const DashboardTemplateChart = Type.Object(
  {
    tid: Type.Integer({ description: "The chart's number in the template (0, 1, …): what `charts` picks when making charts from it" }),
    name: Type.String(),
    type: Type.String(),
    chart: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields of the chart it makes (name, type, interval, display options…)' }),
    layout: Type.Unknown({ description: 'Its place on the dashboard it was saved from: `{"lg": [x, y, w, h]}`' }),
    ChartDatasetConfigs: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'Its dataset configs, each with dataset_id and the client id its layer names' }),
    visualization: Ref(ChartVisualization),
  },
  { $id: 'DashboardTemplateChart' },
);

export const DashboardTemplateModel = Type.Object(
  {
    Charts: Type.Array(Ref(DashboardTemplateChart)),
    Datasets: Type.Array(Type.Object({ id: Type.Integer() }), { description: "The team's datasets the charts draw, once each" }),
    Connections: Type.Array(Type.Unknown(), {
      description: "Always empty: a template draws the team's own datasets, whose connections stay as they are (Chartbrew copied connections into its templates)",
    }),
  },
  { $id: 'DashboardTemplateModel' },
);
export type DashboardTemplateModelView = Static<typeof DashboardTemplateModel>;

/**
 * Every chart of a dashboard saved as a template of its team (Chartbrew's team templates): made
 * into charts again on any dashboard of the team with `POST /project/{id}/template/custom`.
 */
export const DashboardTemplate = Type.Object(
  {
    id: Type.Integer(),
    team_id: Type.Integer(),
    project_id: Nullable(Type.Integer({ description: 'The dashboard it was saved from (its access decides who sees the template); null once it was deleted' })),
    name: Type.String(),
    description: Nullable(Type.String()),
    model: Ref(DashboardTemplateModel),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'DashboardTemplate' },
);
export type DashboardTemplateView = Static<typeof DashboardTemplate>;

export const CreateDashboardTemplate = WriteBody(
  {
    project_id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  {
    $id: 'CreateDashboardTemplate',
    description: 'Save every chart of the dashboard `project_id` as a template of the team',
    answer: DashboardTemplate,
    ignored: ['model'],
  },
);
export type CreateDashboardTemplateInput = Static<typeof CreateDashboardTemplate>;

export const UpdateDashboardTemplate = WriteBody(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { $id: 'UpdateDashboardTemplate', description: 'Rename or describe a template; what it holds is read-only', answer: DashboardTemplate },
);
export type UpdateDashboardTemplateInput = Static<typeof UpdateDashboardTemplate>;

export const DashboardTemplateParams = Type.Object({ team_id: Id, template_id: Id });
export const GenerateTemplateParams = Type.Object({ team_id: Id, project_id: Id });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const DASHBOARD_TEMPLATE_COMPONENTS = [DashboardTemplateChart, DashboardTemplateModel, DashboardTemplate, CreateDashboardTemplate, UpdateDashboardTemplate];
