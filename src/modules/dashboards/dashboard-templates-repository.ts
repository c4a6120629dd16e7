import type { Db } from '../../store/index.js';
import type { TemplateModel } from './chart-templates-repository.js';
import { TemplatesRepository, type TemplateRecord } from './templates-repository.js';

/** One chart of a dashboard template: what makes it again, its place and its number in the template. */
export interface DashboardTemplateChart extends TemplateModel {
  /** Chartbrew's template id of the chart (its index in the dashboard): what `charts` picks when making charts. */
  tid: number;
  layout: unknown;
}

export interface DashboardTemplateModel {
  charts: DashboardTemplateChart[];
}

export type DashboardTemplateRecord = TemplateRecord<DashboardTemplateModel>;

/** Dashboard templates: rows of `chart_templates` whose kind is `dashboard` (migration 0023). */
export class DashboardTemplatesRepository extends TemplatesRepository<DashboardTemplateModel> {
  constructor(db: Db) {
    super(db, 'dashboard', (model) => ({ charts: Array.isArray(model.charts) ? model.charts : [] }));
  }
}
