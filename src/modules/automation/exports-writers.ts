import { PassThrough, Readable } from 'node:stream';
import type ExcelJSModule from 'exceljs';
import type { ExportTable } from './exports-tables.js';

export const FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof FORMATS)[number];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `attachment; filename="…"` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(baseName: string, format: ExportFormat): string {
  const name = `${baseName.trim() || 'export'}.${format}`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A sheet name Excel accepts: at most 31 characters, none of : \ / ? * [ ], unique in the book. */
function sheetName(name: string, taken: Set<string>): string {
  const base = (name.replace(/[:\\/?*[\]]/g, ' ').trim() || 'Sheet').slice(0, 31);
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base.slice(0, 31 - String(n).length - 1)} ${n}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** csv-stringify is loaded on the first CSV export, not at every start. */
let csv: Promise<typeof import('csv-stringify')> | undefined;
const loadCsv = () =>
  (csv ??= import('csv-stringify').catch((error: unknown) => {
    csv = undefined;
    throw error;
  }));

/** Text a spreadsheet program reads as a formula when it starts a cell (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that is plainly a number (`-5`, `+3.2`, `-1e3`, `.5`): a spreadsheet reads it as that number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A CSV cell's text as a spreadsheet program must read it: text starting with `=`, `+`, `-`, `@`,
 * TAB or CR gets a leading `'`, so it shows as text and never runs as a formula (a `=HYPERLINK`
 * that leaks the sheet, a DDE command). Plain numbers keep their sign. XLSX needs none of this:
 * it writes strings as strings.
 */
function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * CSV rows streamed as they come (header first); a leading BOM lets spreadsheet programs read
 * UTF-8. Every text cell, header names included, goes through `neutraliseFormula`; numbers are
 * written as numbers.
 */
export function csvStream(columns: readonly string[], rows: AsyncIterable<unknown[][]> | Iterable<unknown[][]>): Readable {
  const out = new PassThrough();
  loadCsv().then(
    ({ stringify }) => {
      const stringifier = stringify({ bom: true, cast: { boolean: (value) => (value ? 'true' : 'false'), string: neutraliseFormula } });
      const source = Readable.from(
        (async function* () {
          yield [...columns];
          for await (const batch of rows) for (const row of batch) yield row.map((v) => (v === null || v === undefined ? '' : v));
        })(),
        { objectMode: true },
      );
      source.on('error', (err) => stringifier.destroy(err));
      stringifier.on('error', (err) => out.destroy(err));
      // Closing the returned stream early closes the CSV writer too, as when it was the stream returned.
      out.on('close', () => stringifier.destroy());
      source.pipe(stringifier).pipe(out);
    },
    (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
  );
  return out;
}

/** exceljs is large: loaded on the first XLSX export, not at every start of the process or CLI. */
let excel: Promise<typeof ExcelJSModule> | undefined;
const loadExcel = () => (excel ??= import('exceljs').then((m) => (m as unknown as { default: typeof ExcelJSModule }).default ?? (m as unknown as typeof ExcelJSModule)));

/** An XLSX workbook written as a stream: one sheet per table, header row bold, numbers as numbers. */
export function xlsxStream(tables: { name: string; columns: readonly string[]; rows: AsyncIterable<unknown[][]> | Iterable<unknown[][]> }[]): Readable {
  const out = new PassThrough();
  const taken = new Set<string>();
  void (async () => {
    const ExcelJS = await loadExcel();
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    for (const table of tables) {
      const sheet = book.addWorksheet(sheetName(table.name, taken));
      const header = sheet.addRow([...table.columns]);
      header.font = { bold: true };
      header.commit();
      for await (const batch of table.rows) for (const row of batch) sheet.addRow(row.map((v) => (v === undefined ? null : v))).commit();
      sheet.commit();
    }
    await book.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

export function tableStream(format: ExportFormat, tables: ExportTable[], single: ExportTable): Readable {
  return format === 'csv' ? csvStream(single.columns, [single.rows]) : xlsxStream(tables.length > 0 ? tables.map((t) => ({ ...t, rows: [t.rows] })) : [{ ...single, rows: [single.rows] }]);
}
