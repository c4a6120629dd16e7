import type { Static } from 'typebox';
import type { Actor } from '../../platform/actor.js';
import type { ChartsService } from './charts-service.js';
import type { ChartPreview, PreviewChartInput } from './charts-schemas.js';
import type { RuntimeFilter } from '../data/index.js';
import type { ChartRunService } from './chart-runs-service.js';

export type ChartPreviewAnswer = Static<typeof ChartPreview>;

export interface ChartPreviewDeps {
  charts: ChartsService;
  runs: ChartRunService;
}

/**
 * `POST /project/{pid}/chart/preview`: the data of a chart that is not saved, computed by the same
 * engine path as a chart run, with nothing written to the store or the result cache.
 */
export class ChartPreviewService {
  constructor(private readonly deps: ChartPreviewDeps) {}

  async preview(actor: Actor, projectId: number, input: PreviewChartInput, filters: RuntimeFilter[]): Promise<ChartPreviewAnswer> {
    const { project, chart } = await this.deps.charts.draft(actor, projectId, input);
    const result = await this.deps.runs.computeUnsaved({ chart, project }, { variables: input.variables ?? {}, filters });
    const { truncation } = result;
    return {
      chartData: result.chartData,
      truncated: truncation !== undefined,
      ...truncation,
      paths: result.paths,
    };
  }
}
