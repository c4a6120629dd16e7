import { rowsOf } from '../api/narrow';
import type { RunMeta, RunResult } from '../api/types';
import { Empty } from '../ui';

/** Which limit cut a run, in words. */
function truncationNote(meta: RunMeta): string {
  if (!meta.truncated) return '';
  if (meta.truncatedBy === 'pages') return ` (truncated: the source had more pages than the limit of ${meta.pageLimit ?? 'pages per run'})`;
  if (meta.truncatedBy === 'bytes') {
    const size = meta.byteLimit !== undefined ? `${Math.max(1, Math.round(meta.byteLimit / 1048576))} MiB` : 'the size limit';
    return ` (truncated by the size limit: the first ${size} of data only)`;
  }
  return ' (truncated by the row limit)';
}

/** The first rows of a dataset run, with how many there were and what cut them. */
export function RunPreview({ result, title = 'Preview' }: { result: Pick<RunResult, 'data' | 'meta'>; title?: string }) {
  const rows = rowsOf(result.data).slice(0, 100);
  // A joined result's fields come from several requests: read them from the rows.
  const columns = [...new Set([...result.meta.columns.map((c) => c.name), ...rows.flatMap((row) => Object.keys(row))])];
  return (
    <div className="panel">
      <h2>{title}</h2>
      <p className="muted" data-testid={title === 'Preview' || title === 'Last saved preview' ? 'run-meta' : `${title.toLowerCase().replace(/\W+/g, '-')}-meta`}>
        {result.meta.rowCount} rows in {Math.round(result.meta.durationMs)} ms{truncationNote(result.meta)}
      </p>
      {rows.length === 0 ? (
        <Empty>The query returned no rows.</Empty>
      ) : (
        <div className="table-wrap">
          <table aria-label={title === 'Preview' ? 'Query result' : title}>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c}>{row[c] === null || row[c] === undefined ? '' : typeof row[c] === 'object' ? JSON.stringify(row[c]) : String(row[c])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
