import type { Db } from '../../store/index.js';
import { TemplatesRepository, type TemplateRecord } from './templates-repository.js';

/** What a template keeps of its chart: the body that quick-creates it again. */
export interface TemplateModel {
  chart: Record<string, unknown>;
  chartDatasetConfigs: Record<string, unknown>[];
  visualization: unknown;
}

export type ChartTemplateRecord = TemplateRecord<TemplateModel>;

/** Chart templates: rows of `chart_templates` whose kind is `chart`. */
export class ChartTemplatesRepository extends TemplatesRepository<TemplateModel> {
  constructor(db: Db) {
    super(db, 'chart', (model) => ({
      chart: model.chart ?? {},
      chartDatasetConfigs: Array.isArray(model.chartDatasetConfigs) ? model.chartDatasetConfigs : [],
      visualization: model.visualization ?? null,
    }));
  }
}
