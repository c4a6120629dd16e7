/**
 * A chart's data as tables: labels and one column per series, or, for table charts, their rows.
 * Cells keep their types (numbers stay numbers); nested values are JSON text.
 */
export interface ExportTable {
  name: string;
  columns: string[];
  rows: unknown[][];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A cell as a spreadsheet or CSV can hold it: scalars as they are, anything else as JSON text. */
export function cell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

export function chartTables(type: string | null, chartData: unknown): ExportTable[] {
  if (!isObject(chartData)) return [];
  if (type === 'table') {
    return Object.entries(chartData)
      .filter((entry): entry is [string, Json] => isObject(entry[1]) && Array.isArray(entry[1]['columns']) && Array.isArray(entry[1]['data']))
      .map(([name, table]) => {
        const columns = (table['columns'] as unknown[]).map((c) => (isObject(c) ? String(c['accessor'] ?? c['Header'] ?? '') : String(c)));
        const rows = (table['data'] as unknown[]).map((row) => columns.map((column) => (isObject(row) ? cell(row[column]) : null)));
        return { name, columns, rows };
      });
  }
  const data = chartData['data'];
  if (!isObject(data) || !Array.isArray(data['labels']) || !Array.isArray(data['datasets'])) return [];
  const labels = data['labels'] as unknown[];
  const series = (data['datasets'] as unknown[]).filter(isObject);
  const columns = ['label', ...series.map((s, i) => (typeof s['label'] === 'string' && s['label'] !== '' ? s['label'] : `Dataset ${i + 1}`))];
  const rows = labels.map((label, i) => [cell(label), ...series.map((s) => (Array.isArray(s['data']) ? cell((s['data'] as unknown[])[i]) : null))]);
  return [{ name: 'data', columns, rows }];
}

/** One table for a CSV: several tables (a table chart with several datasets) gain a first `dataset` column. */
export function singleTable(tables: ExportTable[]): ExportTable {
  if (tables.length === 1) return tables[0]!;
  if (tables.length === 0) return { name: 'data', columns: [], rows: [] };
  const columns: string[] = [];
  for (const table of tables) for (const column of table.columns) if (!columns.includes(column)) columns.push(column);
  const rows = tables.flatMap((table) =>
    table.rows.map((row) => [table.name, ...columns.map((column) => {
      const at = table.columns.indexOf(column);
      return at < 0 ? null : row[at];
    })]),
  );
  return { name: 'data', columns: ['dataset', ...columns], rows };
}
