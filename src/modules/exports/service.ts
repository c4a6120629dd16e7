import type { Readable } from 'node:stream';
import type { Actor } from '../../platform/actor.js';
import type { ChartRunService } from '../chart-runs/service.js';
import type { DatasetsService } from '../datasets/service.js';
import type { DatasetRunner } from '../dataset-runs/runner.js';
import type { ShareViewer, ViewRequest } from '../sharing/viewer.js';
import { cell, chartTables, singleTable } from './tables.js';
import { csvStream, tableStream, xlsxStream, type ExportFormat } from './writers.js';

export interface ExportFile {
  /** File name without extension. */
  name: string;
  body: Readable;
}

export interface ExportDeps {
  chartRuns: ChartRunService;
  datasets: DatasetsService;
  runner: DatasetRunner;
  viewer: ShareViewer;
}

/** Chart and dataset exports for members, and chart exports through share links when the team allows them. */
export class ExportService {
  constructor(private readonly deps: ExportDeps) {}

  /** The chart's data (from the cache when it holds this run), as the editor shows it. */
  async chart(actor: Actor, projectId: number, chartId: number, format: ExportFormat): Promise<ExportFile> {
    const chart = await this.deps.chartRuns.refresh(actor, projectId, chartId, { getCache: true });
    const tables = chartTables(chart.type ?? null, chart.chartData);
    return { name: chart.name ?? `chart-${chartId}`, body: tableStream(format, tables, singleTable(tables)) };
  }

  /**
   * A shared chart (chart link or a chart of a shared dashboard), only when its team allows report
   * exports: the viewer refuses (403 EXPORT_NOT_ALLOWED) before it looks at a dashboard password.
   */
  async sharedChart(link: { shareString: string } | { brewName: string; chartId: number }, request: ViewRequest, format: ExportFormat): Promise<ExportFile> {
    const chart = await this.deps.viewer.exportable(link, request);
    const tables = chartTables(chart.type ?? null, chart.chartData);
    return { name: chart.name ?? 'chart', body: tableStream(format, tables, singleTable(tables)) };
  }

  /**
   * The dataset run (variables applied), bounded by the row limit. CSV streams batch by batch;
   * columns are those of the first batch (a SQL result has the same columns in every row).
   * The first batch is read before answering, so a failing source is a proper error response.
   */
  async dataset(actor: Actor, teamId: number, datasetId: number, variables: Record<string, unknown>, format: ExportFormat): Promise<ExportFile> {
    const { dataset } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:run');
    const rows = await (await this.deps.runner.prepareOne(teamId, dataset)).stream({ variables });
    const iterator = rows[Symbol.asyncIterator]();
    let first: IteratorResult<Record<string, unknown>[]>;
    try {
      first = await iterator.next();
    } catch (err) {
      await rows.close();
      throw err;
    }
    const firstBatch = first.done ? [] : first.value;
    const columns: string[] = [];
    for (const row of firstBatch) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
    if (columns.length === 0) for (const column of rows.meta().columns) columns.push(column.name);
    const batches = (async function* () {
      try {
        yield firstBatch.map((row) => columns.map((c) => cell(row[c])));
        if (first.done) return;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value.map((row) => columns.map((c) => cell(row[c])));
      } finally {
        await rows.close();
      }
    })();
    const body = format === 'csv' ? csvStream(columns, batches) : xlsxStream([{ name: dataset.name ?? 'data', columns, rows: batches }]);
    return { name: dataset.name ?? `dataset-${datasetId}`, body };
  }
}
