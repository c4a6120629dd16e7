import type { Actor } from '../../platform/actor.js';
import type { ChartsService } from '../charts/service.js';
import type { PreviewChartInput } from '../charts/schemas.js';
import type { RuntimeFilter } from '../dataset-runs/filters.js';
import type { ChartRunService } from './service.js';

export interface ChartPreviewAnswer {
  chartData: unknown;
  truncated: boolean;
  rowLimit?: number;
  paths: ('pushdown' | 'stream')[];
}

/**
 * `POST /project/{pid}/chart/preview`: the data of a chart that is not saved, computed by the same
 * engine path as a chart run, with nothing written to the store or the result cache.
 */
export class ChartPreviewService {
  constructor(
    private readonly charts: ChartsService,
    private readonly runs: ChartRunService,
  ) {}

  async preview(actor: Actor, projectId: number, input: PreviewChartInput, filters: RuntimeFilter[]): Promise<ChartPreviewAnswer> {
    const { project, chart } = await this.charts.draft(actor, projectId, input);
    const result = await this.runs.computeUnsaved({ chart, project }, { variables: input.variables ?? {}, filters });
    return {
      chartData: result.chartData,
      truncated: result.truncation !== undefined,
      ...(result.truncation ? { rowLimit: result.truncation.rowLimit } : {}),
      paths: result.paths,
    };
  }
}
