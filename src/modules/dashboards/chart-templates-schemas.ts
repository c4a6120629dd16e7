import { Type, type Static, type TSchema } from 'typebox';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { ChartVisualization } from './chart-visualization-schemas.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A chart saved as a reusable template: the chart's fields, its dataset configs (which name the
 * team's datasets) and its visualization, whose layers name the configs by `bindingId`
 * (`binding-1`, `binding-2`… as the configs' own `bindingId`). A chart made from it is a
 * quick-create of exactly that.
 */
export const ChartTemplate = Type.Object(
  {
    id: Type.Integer(),
    team_id: Type.Integer(),
    project_id: Nullable(Type.Integer({ description: 'The dashboard the chart was saved from (its access decides who sees the template); null once it was deleted' })),
    name: Type.String(),
    description: Nullable(Type.String()),
    source: Type.Literal('custom', { description: "Chartbrew's template source: every template of a team is one of its own charts" }),
    slug: Type.String({ description: 'The template id as text (Chartbrew names templates by source and slug)' }),
    chart: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields of the chart it makes (name, type, interval, display options…)' }),
    chartDatasetConfigs: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'Its dataset configs, each with dataset_id and the client id its layer names' }),
    visualization: Ref(ChartVisualization),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'ChartTemplate' },
);
export type ChartTemplateView = Static<typeof ChartTemplate>;

export const SaveChartTemplate = Type.Object(
  {
    chart_id: Id,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Default: the chart's name" })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { $id: 'SaveChartTemplate' },
);
export type SaveChartTemplateInput = Static<typeof SaveChartTemplate>;

/**
 * `POST /project/{id}/template/{template}`, Chartbrew's route: `custom` with the template's id in
 * `template_id`, or the id itself in the path.
 */
export const UseChartTemplate = Type.Union(
  [
    Type.Object({
      template_id: Type.Optional(Id),
      charts: Type.Optional(
        Type.Array(Type.Integer({ minimum: 0 }), {
          maxItems: 500,
          description: "A dashboard template's charts to make, by their `tid` (default: all of them); not for a chart template",
        }),
      ),
      connections: Type.Optional(
        Type.Unknown({ description: "Chartbrew's choice of connections to copy or reuse: ignored, a template draws the team's own datasets and makes no connection" }),
      ),
    }),
    Type.Null(),
  ],
  { $id: 'UseChartTemplate' },
);
export type UseChartTemplateInput = Static<typeof UseChartTemplate>;

export const ChartTemplateListParams = Type.Object({ team_id: Id });
export const ChartTemplateListQuery = Type.Object({ source: Type.Optional(Type.String({ maxLength: 100, description: "Chartbrew's source filter: `custom` lists the team's templates; other sources have none" })) });
export const ChartTemplateParams = Type.Object({ team_id: Id, template_id: Id });
export const SaveTemplateParams = Type.Object({ id: Id });
export const UseTemplateParams = Type.Object({ id: Id, template: Type.String({ minLength: 1, maxLength: 100, description: '`custom` (the id in body.template_id) or the template id' }) });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const CHART_TEMPLATE_COMPONENTS = [ChartTemplate, SaveChartTemplate, UseChartTemplate];
