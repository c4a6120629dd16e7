import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, ok } from '../api/client';
import { dataRequestsQuery, datasetQuery, keys } from '../api/queries';
import type { DataRequest, Dataset, RunResult } from '../api/types';
import { useSession } from '../session';
import { Empty, ErrorBox, Load, mutationsState, Success } from '../ui';
import { Joins } from './Joins';
import { RunPreview } from './RunPreview';
import { SqlEditor } from './SqlEditor';

/** `{{name}}` placeholders of a query, in order of appearance. */
function variablesOf(query: string): string[] {
  return [...new Set([...query.matchAll(/\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g)].map((m) => m[1]!))];
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
  const [query, setQuery] = useState(request.query ?? '');
  const [defaults, setDefaults] = useState<Record<string, string>>(() => Object.fromEntries(request.VariableBindings.map((b) => [b.name, b.default_value ?? ''])));
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<RunResult | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const names = useMemo(() => variablesOf(query), [query]);
  useEffect(() => setMessage(null), [query]);
  const path = { team_id: team.id, dataset_id: dataset.id, id: request.id };

  const save = useMutation({
    mutationFn: async () => {
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path }, body: { query } }));
      for (const name of names) {
        const existing = request.VariableBindings.find((b) => b.name === name);
        const body = { name, type: 'string' as const, default_value: defaults[name] ?? '', required: false };
        if (existing) await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings/{variable_id}', { params: { path: { ...path, variable_id: existing.id } }, body }));
        else await ok(api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings', { params: { path }, body }));
      }
    },
    onSuccess: () => {
      setMessage('Saved.');
      return client.invalidateQueries({ queryKey: keys.dataset(team.id, dataset.id) });
    },
  });

  const run = useMutation({
    mutationFn: () => {
      const variables = Object.fromEntries(names.filter((n) => (values[n] ?? '') !== '').map((n) => [n, values[n]]));
      return ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path: { team_id: team.id, dataset_id: dataset.id } }, body: { variables, limit: 100 } }));
    },
    onSuccess: setResult,
  });
  const { busy, error } = mutationsState(save, run);

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
        <ErrorBox error={error} />
        <Success message={message} />
        <div className="actions">
          <button type="button" className="primary" onClick={() => save.mutate()} disabled={busy}>
            Save dataset
          </button>
          <button type="button" onClick={() => run.mutate()} disabled={busy}>
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
      {busy ? <p className="status" role="status">Running…</p> : null}
      {result ? <RunPreview result={result} /> : null}
    </section>
  );
}

