import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, ok } from '../api/client';
import { connectionsQuery, dataRequestsQuery, datasetQuery, keys, projectsQuery } from '../api/queries';
import type { Connection, DataRequest, Dataset, DraftBinding, RunMeta } from '../api/types';
import { Link } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, Success } from '../ui';
import { Joins } from './Joins';
import { RunPreview } from './RunPreview';
import { SqlEditor, sqlNamespaceOf, type SqlDialect } from './SqlEditor';
import { useUnsavedGuard } from './unsaved-guard';
import './Data.css';

/** `{{name}}` placeholders of a query, in order of appearance. */
function variablesOf(query: string): string[] {
  return [...new Set([...query.matchAll(/\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g)].map((m) => m[1]!))];
}

/** What the preview shows: rows of a run, where they came from, and the variables that had no value. */
interface Shown {
  data: unknown;
  meta: RunMeta;
  variablesWithoutValue: string[];
  from: 'draft' | 'cache';
  at?: string;
}

const dialectOf = (connection: Connection | undefined): SqlDialect => (connection?.type === 'postgres' ? 'postgres' : connection?.type === 'mysql' ? 'mysql' : 'other');

/** An error of a run in words that name what it ran on: the connection, and the variable when the API named one. */
function runError(error: Error, connection: Connection | undefined): Error {
  if (!(error instanceof ApiError)) return error;
  const named = connection ? `the connection "${connection.name}"` : 'its connection';
  if (error.code === 'INVALID_QUERY') return new Error(`${error.message} (not sent to ${named})`);
  if (error.code.startsWith('SOURCE_') || error.code.startsWith('CONNECTION')) return new Error(`${named[0]!.toUpperCase()}${named.slice(1)} answered: ${error.message}`);
  return error;
}

export function DatasetEditor({ datasetId }: { datasetId: number }) {
  const { team } = useSession();
  const dataset = useQuery(datasetQuery(team.id, datasetId));
  const requests = useQuery(dataRequestsQuery(team.id, datasetId));
  return (
    <Load query={dataset} what="the dataset">
      {(d) => (
        <Load query={requests} what="the dataset">
          {(list) => {
            const main = list.find((r) => r.id === d.main_dr_id) ?? list[0];
            return main ? (
              <>
                <Editor dataset={d} request={main} />
                <Joins dataset={d} main={main} requests={list} />
              </>
            ) : (
              <Empty>This dataset has no query.</Empty>
            );
          }}
        </Load>
      )}
    </Load>
  );
}

function Editor({ dataset, request }: { dataset: Dataset; request: DataRequest }) {
  const { team } = useSession();
  const client = useQueryClient();
  const connections = useQuery(connectionsQuery(team.id));
  const connection = connections.data?.find((c) => c.id === request.connection_id);
  const schema = useMemo(() => sqlNamespaceOf(connection?.schema), [connection?.schema]);
  const [savedQuery, setSavedQuery] = useState(request.query ?? '');
  const [query, setQuery] = useState(savedQuery);
  const savedDefaults = useMemo(() => Object.fromEntries(request.VariableBindings.map((b) => [b.name, b.default_value ?? ''])), [request.VariableBindings]);
  const [defaults, setDefaults] = useState<Record<string, string>>(savedDefaults);
  const [values, setValues] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<Shown | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [checkFailed, setCheckFailed] = useState(false);
  const names = useMemo(() => variablesOf(query), [query]);
  const dirty = query !== savedQuery || names.some((n) => (defaults[n] ?? '') !== (savedDefaults[n] ?? ''));
  // Asked before unsaved SQL is lost; a save makes the text on screen the saved one, which ends it.
  useUnsavedGuard(dirty, 'Leave without saving the query? Your changes to it will be lost.');
  const path = { team_id: team.id, dataset_id: dataset.id, id: request.id };
  const running = useRef<AbortController | null>(null);

  // The last run kept in the cache, if any: shown as it is, nothing runs on the source on opening.
  const cached = useQuery({
    queryKey: [...keys.dataset(team.id, dataset.id), 'cached-preview'],
    queryFn: () => ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path: { team_id: team.id, dataset_id: dataset.id } }, body: { noSource: true, limit: 100 } })),
  });
  useEffect(() => {
    if (shown === null && cached.data && cached.data.cache.status === 'hit') {
      setShown({ data: cached.data.data, meta: cached.data.meta, variablesWithoutValue: cached.data.variablesWithoutValue, from: 'cache', at: cached.data.cache.createdAt });
    }
  }, [cached.data, shown]);

  /** A bound variable keeps its type (a date, a number, a list); a new one is text. */
  const typeOf = (name: string): { type?: NonNullable<DraftBinding['type']> } => {
    const type = request.VariableBindings.find((b) => b.name === name)?.type;
    return type ? { type: type as NonNullable<DraftBinding['type']> } : {};
  };

  /** The run's values: what was typed for this run, else the default on screen. */
  const runVariables = () => Object.fromEntries(names.map((n) => [n, (values[n] ?? '') !== '' ? values[n] : (defaults[n] ?? '')]).filter(([, v]) => v !== ''));
  const draft = (limit: number, signal?: AbortSignal) =>
    ok(
      api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/draft', {
        params: { path },
        // The variables on screen are bound as saving would bind them: one left without a value runs as NULL and is named.
        body: { query, variables: runVariables(), limit, variableBindings: names.map((name) => ({ name, default_value: defaults[name] ?? '', ...typeOf(name) })) },
        ...(signal ? { signal } : {}),
      }),
    );

  const run = useMutation({
    mutationFn: async () => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      try {
        return await draft(100, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) throw new Error('The run was cancelled; the query was stopped on the database.');
        throw runError(error as Error, connection);
      } finally {
        if (running.current === controller) running.current = null;
      }
    },
    onMutate: () => setMessage(null),
    onSuccess: (answer) => setShown({ data: answer.dataRequest.responseData.data, meta: answer.dataRequest.meta, variablesWithoutValue: answer.variablesWithoutValue, from: 'draft' }),
  });
  useEffect(() => () => running.current?.abort(), []);

  const save = useMutation({
    mutationFn: async ({ check }: { check: boolean }) => {
      // The query on screen must run before it is kept: a broken one is not saved behind a "Saved.".
      if (check) {
        try {
          await draft(1);
        } catch (error) {
          setCheckFailed(true);
          throw new Error(`Not saved: ${runError(error as Error, connection).message}`);
        }
      }
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path }, body: { query } }));
      for (const name of names) {
        const existing = request.VariableBindings.find((b) => b.name === name);
        const body = { name, type: typeOf(name).type ?? ('string' as const), default_value: defaults[name] ?? '', required: existing?.required ?? false };
        if (existing) await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings/{variable_id}', { params: { path: { ...path, variable_id: existing.id } }, body }));
        else await ok(api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings', { params: { path }, body }));
      }
      return { query, check };
    },
    onMutate: () => {
      setMessage(null);
      setCheckFailed(false);
    },
    onSuccess: ({ query: kept, check }) => {
      setSavedQuery(kept);
      setMessage(check ? 'Saved: the query ran.' : 'Saved without running it.');
      return client.invalidateQueries({ queryKey: keys.dataset(team.id, dataset.id) });
    },
  });

  // Edited text is another query: a refused save's error, its "Save anyway" and a "Saved" no longer apply.
  const latestSave = useRef(save);
  latestSave.current = save;
  useEffect(() => {
    latestSave.current.reset();
    setCheckFailed(false);
    setMessage(null);
  }, [query]);
  const lastError = (save.submittedAt > run.submittedAt ? save.error : run.error) ?? null;
  // Of a SQL draft, the variables of the text on screen (the request's other bindings are not in it).
  const unset = shown ? shown.variablesWithoutValue.filter((n) => shown.from === 'cache' || names.length === 0 || names.includes(n)) : [];
  const busy = save.isPending || run.isPending;
  const exportUrl = (format: string) => `/team/${team.id}/datasets/${dataset.id}/export?format=${format}`;

  const runNow = () => {
    if (!run.isPending && !save.isPending) run.mutate();
  };

  return (
    <section aria-labelledby="dataset-title">
      <h1 id="dataset-title">{dataset.name ?? `Dataset ${dataset.id}`}</h1>
      <DatasetSettings dataset={dataset} request={request} connections={connections.data ?? []} />
      <div className="sql-layout">
        <div className="panel">
          <h2>
            Query{' '}
            {dirty ? (
              <span className="badge" data-testid="unsaved">
                Unsaved changes
              </span>
            ) : null}
          </h2>
          <p className="hint">
            Write SQL; <code>{'{{name}}'}</code> marks a variable, sent as a bound parameter. <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd> runs the query on screen.
          </p>
          <SqlEditor initialValue={savedQuery} onChange={setQuery} onRun={runNow} label="SQL query" schema={schema?.namespace} dialect={dialectOf(connection)} />
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
          <ErrorBox error={lastError} />
          <Success message={lastError ? null : message} />
          {message && !lastError ? <NextChart datasetName={dataset.name ?? `Dataset ${dataset.id}`} /> : null}
          <div className="actions">
            <button type="button" className="primary" onClick={() => save.mutate({ check: true })} disabled={busy}>
              Save dataset
            </button>
            {checkFailed && save.isError ? (
              <button type="button" onClick={() => save.mutate({ check: false })} disabled={busy}>
                Save anyway
              </button>
            ) : null}
            {run.isPending ? (
              <button type="button" className="danger" onClick={() => running.current?.abort()}>
                Cancel run
              </button>
            ) : (
              <button type="button" onClick={runNow} disabled={busy}>
                Run query
              </button>
            )}
            <a className="button" href={exportUrl('csv')} download>
              Export CSV
            </a>
            <a className="button" href={exportUrl('xlsx')} download>
              Export XLSX
            </a>
          </div>
        </div>
        <SchemaPanel tables={schema?.tables} connection={connection} />
      </div>
      {run.isPending ? (
        <p className="status" role="status" data-testid="running">
          Running the query on {connection ? `"${connection.name}"` : 'its connection'}…
        </p>
      ) : save.isPending ? (
        <p className="status" role="status">
          Checking and saving…
        </p>
      ) : null}
      {shown ? (
        <>
          {unset.length > 0 ? (
            <p className="notice" role="note" data-testid="variables-without-value">
              {unset.length === 1 ? 'The variable ' : 'The variables '}
              {unset.map((n) => `"${n}"`).join(', ')} had no value and ran as NULL
              {shown.meta.rowCount === 0 ? ', which is likely why there are no rows' : ''}: give {unset.length === 1 ? 'it' : 'them'} a default or a value for this run.
            </p>
          ) : null}
          <RunPreview result={{ data: shown.data, meta: shown.meta }} title={shown.from === 'cache' ? 'Last saved preview' : 'Preview'} />
        </>
      ) : cached.isPending ? null : (
        <p className="muted" data-testid="not-run">
          Not run yet since it was saved: press Run query (or Ctrl/⌘+Enter) to see its rows.
        </p>
      )}
    </section>
  );
}

/** The connection's tables and columns, from its saved schema; admins can read it again from the database. */
function SchemaPanel({ tables, connection }: { tables: { name: string; columns: { name: string; type: string }[] }[] | undefined; connection: Connection | undefined }) {
  const { team, me } = useSession();
  const client = useQueryClient();
  const refresh = useMutation({
    mutationFn: () => ok(api.GET('/team/{team_id}/connections/{connection_id}/schema', { params: { path: { team_id: team.id, connection_id: connection!.id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.connections(team.id) }),
  });
  // Reading the tables from the database is for those who manage connections.
  const canRead = team.TeamRoles.some((r) => r.user_id === me.id && (r.role === 'teamOwner' || r.role === 'teamAdmin'));
  return (
    <aside className="panel schema-panel" aria-labelledby="schema-title">
      <h2 id="schema-title">Tables</h2>
      {!connection ? (
        <p className="hint">No connection.</p>
      ) : tables && tables.length > 0 ? (
        <>
          <p className="hint">Of &quot;{connection.name}&quot;; also offered as you type.</p>
          <ul className="schema-tables">
            {tables.map((t) => (
              <li key={t.name}>
                <details>
                  <summary>{t.name}</summary>
                  <ul>
                    {t.columns.map((c) => (
                      <li key={c.name}>
                        <code>{c.name}</code> <span className="muted">{c.type}</span>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="hint">The tables of &quot;{connection.name}&quot; are not known yet.</p>
      )}
      {connection && canRead ? (
        <button type="button" className="link" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          {refresh.isPending ? 'Reading the tables…' : 'Read the tables again'}
        </button>
      ) : null}
      <ErrorBox error={refresh.error} />
    </aside>
  );
}

/** Which connection the dataset's query runs on, and which dashboards it is attached to. */
function DatasetSettings({ dataset, request, connections }: { dataset: Dataset; request: DataRequest; connections: Connection[] }) {
  const { team } = useSession();
  const client = useQueryClient();
  const projects = useQuery(projectsQuery(team.id));
  const [connectionId, setConnectionId] = useState<number | null>(request.connection_id);
  const [projectIds, setProjectIds] = useState<number[]>(dataset.project_ids);
  const [message, setMessage] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: async () => {
      const path = { team_id: team.id, dataset_id: dataset.id };
      if (connectionId !== request.connection_id && connectionId !== null) {
        await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path: { ...path, id: request.id } }, body: { connection_id: connectionId } }));
        await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}', { params: { path }, body: { connection_id: connectionId } }));
      }
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}', { params: { path }, body: { project_ids: projectIds } }));
    },
    onMutate: () => setMessage(null),
    onSuccess: () => {
      setMessage('Settings saved.');
      return Promise.all([client.invalidateQueries({ queryKey: keys.datasets(team.id) })]);
    },
  });
  const changed = connectionId !== request.connection_id || [...projectIds].sort().join() !== [...dataset.project_ids].sort().join();
  return (
    <details className="panel dataset-settings" open={request.connection_id === null}>
      <summary>
        <strong>Connection and dashboards</strong>{' '}
        <span className="muted" data-testid="dataset-summary">
          {connections.find((c) => c.id === request.connection_id)?.name ?? 'no connection'} · used on {dataset.project_ids.length === 0 ? 'no dashboard yet' : `${dataset.project_ids.length} dashboard${dataset.project_ids.length === 1 ? '' : 's'}`}
        </span>
      </summary>
      <Field label="Connection">
        <select value={connectionId ?? ''} onChange={(e) => setConnectionId(Number(e.target.value))}>
          {connectionId === null ? <option value="">Choose a connection</option> : null}
          {connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.subType ?? c.type})
            </option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>Dashboards</legend>
        <p className="hint">Any dashboard you can edit can use this dataset: choosing it in a chart attaches it. Attached here, members of that dashboard see it too.</p>
        {projects.data?.length === 0 ? <p className="hint">No dashboard yet.</p> : null}
        {projects.data?.map((p) => (
          <label className="check" key={p.id}>
            <input
              type="checkbox"
              checked={projectIds.includes(p.id)}
              onChange={(e) => setProjectIds(e.target.checked ? [...projectIds, p.id] : projectIds.filter((id) => id !== p.id))}
            />{' '}
            {p.dashboardTitle || p.name}
          </label>
        ))}
      </fieldset>
      <ErrorBox error={save.error} />
      <Success message={message} />
      <div className="actions">
        <button type="button" onClick={() => save.mutate()} disabled={!changed || save.isPending}>
          Save settings
        </button>
      </div>
    </details>
  );
}

/**
 * After a save, the way on to a chart: each dashboard of the team (its own first), whose chart form
 * offers every dataset of the team; or, before any dashboard exists, where to create one.
 */
function NextChart({ datasetName }: { datasetName: string }) {
  const { team } = useSession();
  const projects = useQuery(projectsQuery(team.id));
  if (!projects.data) return null;
  return (
    <p className="hint" data-testid="next-chart">
      {projects.data.length === 0 ? (
        <>
          Next: <Link to="/">create a dashboard</Link>, then add a chart drawn from “{datasetName}”.
        </>
      ) : (
        <>
          Next: add a chart drawn from “{datasetName}” to{' '}
          {projects.data.slice(0, 5).map((p, i) => (
            <span key={p.id}>
              {i > 0 ? ', ' : ''}
              <Link to={`/dashboards/${p.id}/charts/new`}>{p.dashboardTitle || p.name}</Link>
            </span>
          ))}
          .
        </>
      )}
    </p>
  );
}
