import { useEffect, useState } from 'react';
import { api, ok } from '../api/client';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, useAction, useAsync } from '../ui';
import { Preview, type DataRequest, type Dataset, type Join, type RunResult } from './Datasets';
import { SqlEditor } from './SqlEditor';

const field = (column: string) => `root[].${column}`;
const column = (path: string) => path.replace(/^root\[\]\./, '');
const requestName = (request: DataRequest, index: number) => `Request ${index + 2} (#${request.id})`;

interface JoinRow extends Join {
  key: string;
}

/** Column names of a data request, read from a small run of it (null while reading, [] when it fails). */
function useColumns(teamId: number, datasetId: number, requestId: number, query: string | null): string[] | null {
  const [columns, setColumns] = useState<string[] | null>(null);
  useEffect(() => {
    // A request without a query yet has no columns to read.
    if ((query ?? '').trim() === '') return setColumns([]);
    setColumns(null);
    let live = true;
    ok(api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/request', { params: { path: { team_id: teamId, dataset_id: datasetId, id: requestId } }, body: { limit: 20 } })).then(
      (answer) => {
        if (!live) return;
        const result = (answer as unknown as { dataRequest: { responseData: { data: Record<string, unknown>[] }; meta?: RunResult['meta'] } }).dataRequest;
        const named = result.meta?.columns.map((c) => c.name) ?? [];
        setColumns(named.length > 0 ? named : Object.keys(result.responseData.data[0] ?? {}));
      },
      () => live && setColumns([]),
    );
    return () => {
      live = false;
    };
    // The saved query: read again whenever a save changes it.
  }, [teamId, datasetId, requestId, query]);
  return columns;
}

/**
 * The dataset's other data requests and how they join the main one (`joinSettings.joins`): add a
 * request, write its query, match a field of the main request to one of it (left or inner join,
 * optionally under an alias), save, and preview the joined rows.
 */
export function Joins({ dataset, main, requests, onChanged }: { dataset: Dataset; main: DataRequest; requests: DataRequest[]; onChanged: () => void }) {
  const { team } = useSession();
  const others = requests.filter((r) => r.id !== main.id);
  const [connections] = useAsync(async () => (await ok(api.GET('/team/{team_id}/connections', { params: { path: { team_id: team.id } } }))) as unknown as { id: number; name: string }[], [team.id]);
  const [rows, setRows] = useState<JoinRow[]>(() => (dataset.joinSettings?.joins ?? []).map((j) => ({ ...j, key: crypto.randomUUID() })));
  const [result, setResult] = useState<RunResult | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const action = useAction();
  const mainColumns = useColumns(team.id, dataset.id, main.id, main.query);
  const path = { team_id: team.id, dataset_id: dataset.id };

  const addRequest = async () => {
    const created = await action.run(() =>
      ok(api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests', { params: { path }, body: { connection_id: main.connection_id, query: '' } })),
    );
    if (created) {
      const id = (created as unknown as { id: number }).id;
      setRows((current) => (current.some((r) => r.join_id === id) ? current : [...current, { key: crypto.randomUUID(), dr_id: main.id, join_id: id, dr_field: '', join_field: '', alias: null, type: 'left' }]));
      onChanged();
    }
  };

  const removeRequest = async (request: DataRequest) => {
    const joins = rows.filter((r) => r.join_id !== request.id && r.dr_id !== request.id);
    const done = await action.run(async () => {
      // The joins that use it go first: a join may only name requests of the dataset.
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}', { params: { path }, body: { joinSettings: { joins: joins.map(({ key: _key, ...j }) => j) } } as never }));
      await ok(api.DELETE('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path: { ...path, id: request.id } } }));
      return true;
    });
    if (done) {
      setRows(joins);
      onChanged();
    }
  };

  const complete = rows.every((r) => r.dr_field !== '' && r.join_field !== '');
  const saveAndPreview = async () => {
    setMessage(null);
    const joins = rows.map(({ key: _key, alias, ...j }) => ({ ...j, alias: alias?.trim() ? alias.trim() : null }));
    const answer = await action.run(async () => {
      await ok(api.PUT('/team/{team_id}/datasets/{dataset_id}', { params: { path }, body: { joinSettings: { joins } } as never }));
      return ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path }, body: { limit: 100 } }));
    });
    if (answer) {
      setMessage(joins.length === 0 ? 'Saved: no join.' : `Saved ${joins.length === 1 ? 'the join' : `${joins.length} joins`}.`);
      setResult(answer as unknown as RunResult);
    }
  };

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
          connections={connections.state === 'ready' ? connections.data : []}
          onSaved={onChanged}
          onRemove={() => void removeRequest(request)}
          busy={action.busy}
        />
      ))}
      <div className="actions">
        <button type="button" onClick={() => void addRequest()} disabled={action.busy}>
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
      <ErrorBox error={action.error} />
      {message ? (
        <p className="success" role="status">
          {message}
        </p>
      ) : null}
      {others.length > 0 ? (
        <div className="actions">
          <button type="button" className="primary" onClick={() => void saveAndPreview()} disabled={action.busy || !complete}>
            Save joins and preview
          </button>
        </div>
      ) : null}
      {action.busy ? (
        <p className="status" role="status">
          Working…
        </p>
      ) : null}
      {result ? <Preview result={result} title="Joined result" /> : null}
    </section>
  );
}

function JoinedRequest({
  name,
  datasetId,
  request,
  connections,
  onSaved,
  onRemove,
  busy,
}: {
  name: string;
  datasetId: number;
  request: DataRequest;
  connections: { id: number; name: string }[];
  onSaved: () => void;
  onRemove: () => void;
  busy: boolean;
}) {
  const { team } = useSession();
  const [query, setQuery] = useState(request.query ?? '');
  const [connectionId, setConnectionId] = useState<number | null>(request.connection_id);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async () => {
    setSaved(false);
    const done = await action.run(() =>
      ok(api.PUT('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}', { params: { path: { team_id: team.id, dataset_id: datasetId, id: request.id } }, body: { query, connection_id: connectionId } })),
    );
    if (done) {
      setSaved(true);
      onSaved();
    }
  };
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
      <SqlEditor value={query} onChange={setQuery} label={`SQL of ${name}`} />
      <ErrorBox error={action.error} />
      {saved ? (
        <p className="success" role="status">
          {name} saved.
        </p>
      ) : null}
      <div className="actions">
        <button type="button" onClick={() => void save()} disabled={busy || action.busy}>
          Save {name}
        </button>
        <button type="button" className="danger" onClick={onRemove} disabled={busy || action.busy}>
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
  const joinedColumns = useColumns(teamId, datasetId, row.join_id, others.find((r) => r.id === row.join_id)?.query ?? null);
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
        <select value={row.type ?? 'left'} onChange={(e) => onChange({ type: e.target.value as 'left' | 'inner' })}>
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
