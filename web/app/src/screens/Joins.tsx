import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { joinsOf, oneOf } from '../api/narrow';
import { connectionsQuery, keys, requestColumnsQuery } from '../api/queries';
import type { Connection, DataRequest, Dataset, Join, RunResult } from '../api/types';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, mutationsState, Success } from '../ui';
import { RunPreview } from './RunPreview';
import { SqlEditor } from './SqlEditor';

const field = (column: string) => `root[].${column}`;
const column = (path: string) => path.replace(/^root\[\]\./, '');
const requestName = (request: DataRequest, index: number) => `Request ${index + 2} (#${request.id})`;
const JOIN_TYPES: NonNullable<Join['type']>[] = ['left', 'inner'];

interface JoinRow extends Join {
  key: string;
}

/** Column names of a data request's saved query (null while reading, [] when they cannot be read). */
function useColumns(teamId: number, datasetId: number, request: DataRequest | undefined): string[] | null {
  const query = request?.query ?? '';
  // A request without a query yet has no columns to read.
  const blank = !request || query.trim() === '';
  const columns = useQuery({ ...requestColumnsQuery(teamId, datasetId, { id: request?.id ?? 0, connectionId: request?.connection_id ?? null, query }), enabled: !blank });
  if (blank) return [];
  return columns.data ?? (columns.isError ? [] : null);
}

/**
 * The dataset's other data requests and how they join the main one (`joinSettings.joins`): add a
 * request, write its query, match a field of the main request to one of it (left or inner join,
 * optionally under an alias), save, and preview the joined rows.
 */
export function Joins({ dataset, main, requests }: { dataset: Dataset; main: DataRequest; requests: DataRequest[] }) {
  const { team } = useSession();
  const client = useQueryClient();
  const others = requests.filter((r) => r.id !== main.id);
  const connections = useQuery(connectionsQuery(team.id));
  const [rows, setRows] = useState<JoinRow[]>(() => joinsOf(dataset.joinSettings.joins).map((j) => ({ ...j, key: crypto.randomUUID() })));
  const [result, setResult] = useState<RunResult | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // Read only when there is a request to join it to: opening a dataset runs nothing behind the screen.
  const mainColumns = useColumns(team.id, dataset.id, others.length > 0 ? main : undefined);
  const path = { team_id: team.id, dataset_id: dataset.id };
  const reload = () => client.invalidateQueries({ queryKey: keys.dataset(team.id, dataset.id) });

  const addRequest = useMutation({
    mutationFn: () => ok(api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests', { params: { path }, body: { connection_id: main.connection_id, query: '' } })),
    onSuccess: ({ id }) => {
      setRows((current) => (current.some((r) => r.join_id === id) ? current : [...current, { key: crypto.randomUUID(), dr_id: main.id, join_id: id, dr_field: '', join_field: '', alias: null, type: 'left' }]));
      return reload();
    },
  });

  const removeRequest = useMutation({
    mutationFn: async (request: DataRequest) => {
      const joins = rows.filter((r) => r.join_id !== request.id && r.dr_id !== request.id);
      // The joins that use it go first: a join may only name requests of the dataset.
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}', { params: { path }, body: { joinSettings: { joins: joins.map(({ key: _key, ...j }) => j) } } }));
      await ok(api.DELETE('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path: { ...path, id: request.id } } }));
      return joins;
    },
    onSuccess: (joins) => {
      setRows(joins);
      return reload();
    },
  });

  const complete = rows.every((r) => r.dr_field !== '' && r.join_field !== '');
  const saveAndPreview = useMutation({
    mutationFn: async () => {
      const joins = rows.map(({ key: _key, alias, ...j }) => ({ ...j, alias: alias?.trim() ? alias.trim() : null }));
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}', { params: { path }, body: { joinSettings: { joins } } }));
      return { joins: joins.length, result: await ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path }, body: { limit: 100 } })) };
    },
    onMutate: () => setMessage(null),
    onSuccess: ({ joins, result }) => {
      setMessage(joins === 0 ? 'Saved: no join.' : `Saved ${joins === 1 ? 'the join' : `${joins} joins`}.`);
      setResult(result);
      return reload();
    },
  });
  const { busy, error } = mutationsState(addRequest, removeRequest, saveAndPreview);

  const update = (key: string, change: Partial<Join>) => setRows(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));

  return (
    <section className="panel" aria-labelledby="joins-title">
      <h2 id="joins-title">Joined requests</h2>
      <p className="hint">
        Add another query and match one of its fields to a field of the main query: each row gets the matching row&apos;s fields. A left join keeps rows without a
        match; an inner join drops them.
      </p>
      {others.length === 0 ? <Empty>No joined request yet.</Empty> : null}
      {others.map((request, index) => (
        <JoinedRequest
          key={request.id}
          name={requestName(request, index)}
          datasetId={dataset.id}
          request={request}
          connections={connections.data ?? []}
          onRemove={() => removeRequest.mutate(request)}
          busy={busy}
        />
      ))}
      <div className="actions">
        <button type="button" onClick={() => addRequest.mutate()} disabled={busy}>
          Add a request to join
        </button>
      </div>
      {others.length > 0 ? (
        <fieldset>
          <legend>Joins</legend>
          {rows.length === 0 ? <p className="hint">No join: the dataset answers the main query alone.</p> : null}
          {rows.map((row) => (
            <JoinEditor
              key={row.key}
              row={row}
              others={others}
              mainColumns={row.dr_id === main.id ? mainColumns : null}
              teamId={team.id}
              datasetId={dataset.id}
              onChange={(change) => update(row.key, change)}
              onRemove={() => setRows(rows.filter((r) => r.key !== row.key))}
            />
          ))}
          <button
            type="button"
            className="link"
            onClick={() => setRows([...rows, { key: crypto.randomUUID(), dr_id: main.id, join_id: others[0]!.id, dr_field: '', join_field: '', alias: null, type: 'left' }])}
          >
            Add a join
          </button>
        </fieldset>
      ) : null}
      <ErrorBox error={error} />
      <Success message={message} />
      {others.length > 0 ? (
        <div className="actions">
          <button type="button" className="primary" onClick={() => saveAndPreview.mutate()} disabled={busy || !complete}>
            Save joins and preview
          </button>
        </div>
      ) : null}
      {busy ? (
        <p className="status" role="status">
          Working…
        </p>
      ) : null}
      {result ? <RunPreview result={result} title="Joined result" /> : null}
    </section>
  );
}

function JoinedRequest({ name, datasetId, request, connections, onRemove, busy }: { name: string; datasetId: number; request: DataRequest; connections: Connection[]; onRemove: () => void; busy: boolean }) {
  const { team } = useSession();
  const client = useQueryClient();
  const [query, setQuery] = useState(request.query ?? '');
  const [connectionId, setConnectionId] = useState<number | null>(request.connection_id);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path: { team_id: team.id, dataset_id: datasetId, id: request.id } }, body: { query, connection_id: connectionId } })),
    onMutate: () => setSaved(false),
    onSuccess: () => {
      setSaved(true);
      return client.invalidateQueries({ queryKey: keys.dataset(team.id, datasetId) });
    },
  });
  return (
    <div className="joined-request" role="group" aria-label={name}>
      <h3>{name}</h3>
      <Field label={`Connection of ${name}`}>
        <select value={connectionId ?? ''} onChange={(e) => setConnectionId(Number(e.target.value))}>
          {connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      <SqlEditor initialValue={request.query ?? ''} onChange={setQuery} label={`SQL of ${name}`} />
      <ErrorBox error={save.error} />
      <Success message={saved ? `${name} saved.` : null} />
      <div className="actions">
        <button type="button" onClick={() => save.mutate()} disabled={busy || save.isPending}>
          Save {name}
        </button>
        <button type="button" className="danger" onClick={onRemove} disabled={busy || save.isPending}>
          Remove {name}
        </button>
      </div>
    </div>
  );
}

function JoinEditor({
  row,
  others,
  mainColumns,
  teamId,
  datasetId,
  onChange,
  onRemove,
}: {
  row: JoinRow;
  others: DataRequest[];
  mainColumns: string[] | null;
  teamId: number;
  datasetId: number;
  onChange: (change: Partial<Join>) => void;
  onRemove: () => void;
}) {
  const joinedColumns = useColumns(teamId, datasetId, others.find((r) => r.id === row.join_id));
  const options = (columns: string[] | null, current: string) => {
    const names = columns ?? [];
    // A saved field that the last run did not show (e.g. a nested path) stays selectable.
    const all = current !== '' && !names.includes(column(current)) ? [column(current), ...names] : names;
    return all.map((c) => (
      <option key={c} value={c}>
        {c}
      </option>
    ));
  };
  const index = others.findIndex((r) => r.id === row.join_id);
  const target = index >= 0 ? requestName(others[index]!, index) : `request #${row.join_id}`;
  return (
    <div className="join-row" role="group" aria-label={`Join of ${target}`}>
      <Field label="Joined request">
        <select value={row.join_id} onChange={(e) => onChange({ join_id: Number(e.target.value), join_field: '' })}>
          {others.map((r, i) => (
            <option key={r.id} value={r.id}>
              {requestName(r, i)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Field of the main query">
        <select value={column(row.dr_field)} onChange={(e) => onChange({ dr_field: e.target.value === '' ? '' : field(e.target.value) })}>
          <option value="">{mainColumns === null && row.dr_id !== undefined ? '(reading columns…)' : '(choose a column)'}</option>
          {options(mainColumns, row.dr_field)}
        </select>
      </Field>
      <Field label="Matching field of the joined request">
        <select value={column(row.join_field)} onChange={(e) => onChange({ join_field: e.target.value === '' ? '' : field(e.target.value) })}>
          <option value="">{joinedColumns === null ? '(reading columns…)' : '(choose a column)'}</option>
          {options(joinedColumns, row.join_field)}
        </select>
      </Field>
      <Field label="Join type">
        <select value={row.type ?? 'left'} onChange={(e) => onChange({ type: oneOf(JOIN_TYPES, e.target.value) ?? 'left' })}>
          <option value="left">Left: keep rows without a match</option>
          <option value="inner">Inner: only rows with a match</option>
        </select>
      </Field>
      <Field label="Alias" hint="Puts the joined fields under this name; empty adds them to the row">
        <input value={row.alias ?? ''} onChange={(e) => onChange({ alias: e.target.value })} />
      </Field>
      <button type="button" className="link" onClick={onRemove}>
        Remove this join
      </button>
    </div>
  );
}
