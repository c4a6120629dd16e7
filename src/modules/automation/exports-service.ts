import type { Readable } from 'node:stream';
import type { Actor } from '../../platform/actor.js';
import type { ChartRunService, ShareViewer, ViewRequest } from '../dashboards/index.js';
import type { DatasetRunner, DatasetsService } from '../data/index.js';
import type { Row, RunMeta, TruncationReason } from '../../sources/index.js';
import { cell, chartTables, singleTable } from './exports-tables.js';
import { csvStream, tableStream, xlsxStream, type ExportFormat } from './exports-writers.js';

/** What cut the data of a file, told in its response headers. */
export interface ExportTruncation {
  truncatedBy: TruncationReason;
  rowLimit?: number;
  byteLimit?: number;
}

export interface ExportFile {
  /** File name without extension. */
  name: string;
  body: Readable;
  /** Set when a limit cut the data: the file holds the first rows only. */
  truncation?: ExportTruncation;
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

  /** The chart's data as the editor shows it (from the cache when it holds this run); an export saves nothing and is no refresh. */
  async chart(actor: Actor, projectId: number, chartId: number, format: ExportFormat): Promise<ExportFile> {
    const chart = await this.deps.chartRuns.answer(actor, projectId, chartId, { getCache: true });
    const tables = chartTables(chart.type ?? null, chart.chartData);
    return { name: chart.name ?? `chart-${chartId}`, body: tableStream(format, tables, singleTable(tables)), ...chartTruncation(chart.chartData) };
  }

  /**
   * A shared chart (chart link or a chart of a shared dashboard), only when its team allows report
   * exports: the viewer refuses (403 EXPORT_NOT_ALLOWED) before it looks at a dashboard password.
   */
  async sharedChart(link: { shareString: string } | { brewName: string; chartId: number }, request: ViewRequest, format: ExportFormat): Promise<ExportFile> {
    const chart = await this.deps.viewer.exportable(link, request);
    const tables = chartTables(chart.type ?? null, chart.chartData);
    return { name: chart.name ?? 'chart', body: tableStream(format, tables, singleTable(tables)), ...chartTruncation(chart.chartData) };
  }

  /**
   * The dataset run (variables applied), bounded by the row and byte limits. The run is read whole
   * before answering (the limits bound what that holds), so a failing source is a proper error
   * response and a cut run says so in the response headers. Columns are every field of the rows,
   * in the order first seen.
   */
  async dataset(actor: Actor, teamId: number, datasetId: number, variables: Record<string, unknown>, format: ExportFormat): Promise<ExportFile> {
    const { dataset } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:run');
    const rows = await (await this.deps.runner.prepareOne(teamId, dataset)).stream({ variables });
    const read: Row[][] = [];
    try {
      for await (const batch of rows) read.push(batch);
    } finally {
      await rows.close();
    }
    const meta = rows.meta();
    const seen = new Set<string>();
    for (const batch of read) for (const row of batch) for (const key of Object.keys(row)) seen.add(key);
    if (seen.size === 0) for (const column of meta.columns) seen.add(column.name);
    const columns = [...seen];
    const batches = (function* () {
      while (read.length > 0) yield read.shift()!.map((row) => columns.map((c) => cell(row[c])));
    })();
    const body = format === 'csv' ? csvStream(columns, batches) : xlsxStream([{ name: dataset.name ?? 'data', columns, rows: batches }]);
    return { name: dataset.name ?? `dataset-${datasetId}`, body, ...runTruncation(meta) };
  }
}

function runTruncation(meta: RunMeta): { truncation?: ExportTruncation } {
  if (!meta.truncated) return {};
  return { truncation: { truncatedBy: meta.truncatedBy ?? 'rows', ...(meta.rowLimit !== undefined ? { rowLimit: meta.rowLimit } : {}), ...(meta.byteLimit !== undefined ? { byteLimit: meta.byteLimit } : {}) } };
}

/** A chart's data says whether a limit cut it (see the chart runs service). */
function chartTruncation(chartData: unknown): { truncation?: ExportTruncation } {
  if (chartData === null || typeof chartData !== 'object') return {};
  const data = chartData as { truncated?: unknown; truncatedBy?: unknown; rowLimit?: unknown; byteLimit?: unknown };
  if (data.truncated !== true) return {};
  return {
    truncation: {
      truncatedBy: data.truncatedBy === 'bytes' || data.truncatedBy === 'pages' ? data.truncatedBy : 'rows',
      ...(typeof data.rowLimit === 'number' ? { rowLimit: data.rowLimit } : {}),
      ...(typeof data.byteLimit === 'number' ? { byteLimit: data.byteLimit } : {}),
    },
  };
}
