import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, useAction, useAsync } from '../ui';
import { Joins } from './Joins';
import { SqlEditor } from './SqlEditor';

interface Binding {
  id: number;
  name: string;
  type: string;
  default_value: string | null;
  required: boolean;
}
export interface DataRequest {
  id: number;
  connection_id: number | null;
  query: string | null;
  VariableBindings: Binding[];
}
export interface Join {
  dr_id: number;
  join_id: number;
  dr_field: string;
  join_field: string;
  alias?: string | null;
  type?: 'left' | 'inner' | null;
}
export interface Dataset {
  id: number;
  name: string | null;
  project_ids: number[];
  connection_id: number | null;
  main_dr_id?: number | null;
  joinSettings?: { joins: Join[] };
  DataRequests?: DataRequest[];
}
export interface RunResult {
  data: Record<string, unknown>[];
  meta: {
    columns: { name: string; type: string }[];
    rowCount: number;
    truncated: boolean;
    truncatedBy?: 'rows' | 'bytes' | 'pages';
    pageLimit?: number;
    byteLimit?: number;
    durationMs: number;
  };
}

/** Which limit cut a run, in words. */
function truncationNote(meta: RunResult['meta']): string {
  if (!meta.truncated) return '';
  if (meta.truncatedBy === 'pages') return ` (truncated: the source had more pages than the limit of ${meta.pageLimit ?? 'pages per run'})`;
  if (meta.truncatedBy === 'bytes') {
    const size = meta.byteLimit !== undefined ? `${Math.max(1, Math.round(meta.byteLimit / 1048576))} MiB` : 'the size limit';
    return ` (truncated by the size limit: the first ${size} of data only)`;
  }
  return ' (truncated by the row limit)';
}

/** `{{name}}` placeholders of a query, in order of appearance. */
export function variablesOf(query: string): string[] {
  return [...new Set([...query.matchAll(/\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g)].map((m) => m[1]!))];
}

export function Datasets() {
  const { team } = useSession();
  const { navigate } = useRouter();
  const [datasets, reload] = useAsync(async () => (await ok(api.GET('/team/{team_id}/datasets', { params: { path: { team_id: team.id } } }))) as unknown as Dataset[], [team.id]);
  const [connections] = useAsync(async () => (await ok(api.GET('/team/{team_id}/connections', { params: { path: { team_id: team.id } } }))) as unknown as { id: number; name: string }[], [team.id]);
  const [projects] = useAsync(async () => (await ok(api.GET('/project/team/{team_id}', { params: { path: { team_id: team.id } } }))) as unknown as { id: number; name: string }[], [team.id]);
  const [name, setName] = useState('');
  const [connectionId, setConnectionId] = useState<number | null>(null);
  const action = useAction();
  const create = async (event: FormEvent, conns: { id: number }[], projectIds: number[]) => {
    event.preventDefault();
    const connection = connectionId ?? conns[0]?.id;
    const created = await action.run(() =>
      ok(api.POST('/team/{team_id}/datasets/quick-create', { params: { path: { team_id: team.id } }, body: { name, project_ids: projectIds, dataRequests: [{ connection_id: connection ?? null, query: 'select 1 as value' }] } as never })),
    );
    if (created) navigate(`/datasets/${(created as { id: number }).id}`);
  };
  return (
    <section aria-labelledby="datasets-title">
      <h1 id="datasets-title">Datasets</h1>
      <Load value={datasets} what="datasets" retry={reload}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No dataset yet: a dataset is a query on one of your connections.</p>
            </Empty>
          ) : (
            <ul className="rows">
              {list.map((d) => (
                <li key={d.id}>
                  <Link to={`/datasets/${d.id}`}>{d.name ?? `Dataset ${d.id}`}</Link>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <Load value={connections} what="connections">
        {(conns) =>
          conns.length === 0 ? (
            <Empty>
              <p>
                Add a <Link to="/connections">connection</Link> first.
              </p>
            </Empty>
          ) : (
            <form className="panel inline-form" onSubmit={(e) => void create(e, conns, projects.state === 'ready' ? projects.data.map((p) => p.id) : [])} aria-label="New dataset">
              <Field label="New dataset name">
                <input required value={name} onChange={(e) => setName(e.target.value)} />
              </Field>
              <Field label="Connection">
                <select value={connectionId ?? conns[0]!.id} onChange={(e) => setConnectionId(Number(e.target.value))}>
                  {conns.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </Field>
              <button type="submit" className="primary" disabled={action.busy}>
                Create dataset
              </button>
              <ErrorBox error={action.error} />
            </form>
          )
        }
      </Load>
    </section>
  );
}

export function DatasetEditor({ datasetId }: { datasetId: number }) {
  const { team } = useSession();
  const [loaded, reload] = useAsync(async () => {
    const dataset = (await ok(api.GET('/team/{team_id}/datasets/{dataset_id}', { params: { path: { team_id: team.id, dataset_id: datasetId } } }))) as unknown as Dataset;
    const requests = (await ok(api.GET('/team/{team_id}/datasets/{dataset_id}/dataRequests', { params: { path: { team_id: team.id, dataset_id: datasetId } } }))) as unknown as DataRequest[];
    const main = requests.find((r) => r.id === dataset.main_dr_id) ?? requests[0] ?? null;
    return { dataset, main, requests };
  }, [team.id, datasetId]);
  return (
    <Load value={loaded} what="the dataset" retry={reload}>
      {({ dataset, main, requests }) =>
        main ? (
          <>
            <Editor dataset={dataset} request={main} onSaved={reload} />
            <Joins dataset={dataset} main={main} requests={requests} onChanged={reload} />
          </>
        ) : (
          <Empty>This dataset has no query.</Empty>
        )
      }
    </Load>
  );
}

function Editor({ dataset, request, onSaved }: { dataset: Dataset; request: DataRequest; onSaved: () => void }) {
  const { team } = useSession();
  const [query, setQuery] = useState(request.query ?? '');
  const [defaults, setDefaults] = useState<Record<string, string>>(() => Object.fromEntries(request.VariableBindings.map((b) => [b.name, b.default_value ?? ''])));
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<RunResult | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const action = useAction();
  const names = useMemo(() => variablesOf(query), [query]);
  useEffect(() => setMessage(null), [query]);
  const path = { team_id: team.id, dataset_id: dataset.id, id: request.id };

  const save = async () => {
    const done = await action.run(async () => {
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path }, body: { query } }));
      for (const name of names) {
        const existing = request.VariableBindings.find((b) => b.name === name);
        const body = { name, type: 'string' as const, default_value: defaults[name] ?? '', required: false };
        if (existing) await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings/{variable_id}', { params: { path: { ...path, variable_id: existing.id } }, body }));
        else await ok(api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings', { params: { path }, body }));
      }
      return true;
    });
    if (done) {
      setMessage('Saved.');
      onSaved();
    }
  };

  const run = async () => {
    const variables = Object.fromEntries(names.filter((n) => (values[n] ?? '') !== '').map((n) => [n, values[n]]));
    const answer = await action.run(() => ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path: { team_id: team.id, dataset_id: dataset.id } }, body: { variables, limit: 100 } })));
    if (answer) setResult(answer as unknown as RunResult);
  };

  const exportUrl = (format: string) => `/team/${team.id}/datasets/${dataset.id}/export?format=${format}`;

  return (
    <section aria-labelledby="dataset-title">
      <h1 id="dataset-title">{dataset.name ?? `Dataset ${dataset.id}`}</h1>
      <div className="panel">
        <h2>Query</h2>
        <p className="hint">
          Write SQL; <code>{'{{name}}'}</code> marks a variable, sent as a bound parameter.
        </p>
        <SqlEditor value={query} onChange={setQuery} label="SQL query" />
        {names.length > 0 ? (
          <div className="table-wrap">
            <table aria-label="Variables">
              <thead>
                <tr>
                  <th scope="col">Variable</th>
                  <th scope="col">Default</th>
                  <th scope="col">Value for this run</th>
                </tr>
              </thead>
              <tbody>
                {names.map((name) => (
                  <tr key={name}>
                    <th scope="row">{name}</th>
                    <td>
                      <input aria-label={`Default of ${name}`} value={defaults[name] ?? ''} onChange={(e) => setDefaults({ ...defaults, [name]: e.target.value })} />
                    </td>
                    <td>
                      <input aria-label={`Run value of ${name}`} placeholder="(default)" value={values[name] ?? ''} onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <ErrorBox error={action.error} />
        {message ? (
          <p className="success" role="status">
            {message}
          </p>
        ) : null}
        <div className="actions">
          <button type="button" className="primary" onClick={() => void save()} disabled={action.busy}>
            Save dataset
          </button>
          <button type="button" onClick={() => void run()} disabled={action.busy}>
            Run query
          </button>
          <a className="button" href={exportUrl('csv')} download>
            Export CSV
          </a>
          <a className="button" href={exportUrl('xlsx')} download>
            Export XLSX
          </a>
        </div>
      </div>
      {action.busy ? <p className="status" role="status">Running…</p> : null}
      {result ? <Preview result={result} /> : null}
    </section>
  );
}

export function Preview({ result, title = 'Preview' }: { result: RunResult; title?: string }) {
  // A joined result's fields come from several requests: read them from the rows.
  const columns = [...new Set([...result.meta.columns.map((c) => c.name), ...result.data.slice(0, 100).flatMap((row) => Object.keys(row))])];
  return (
    <div className="panel">
      <h2>{title}</h2>
      <p className="muted" data-testid={title === 'Preview' ? 'run-meta' : `${title.toLowerCase().replace(/\W+/g, '-')}-meta`}>
        {result.meta.rowCount} rows in {Math.round(result.meta.durationMs)} ms{truncationNote(result.meta)}
      </p>
      {result.data.length === 0 ? (
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
              {result.data.slice(0, 100).map((row, i) => (
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
