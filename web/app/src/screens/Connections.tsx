import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, useAction, useAsync } from '../ui';

interface Provider {
  id: string;
  type: string;
  subType: string;
  name: string;
  category: string;
  description: string;
  capabilities: { test: boolean };
}

interface Connection {
  id: number;
  name: string;
  type: string;
  subType: string | null;
  host: string | null;
  port: string | number | null;
  dbName: string | null;
  username: string | null;
  password: string | null;
  ssl: boolean;
  sslMode: string | null;
  connectionString: string | null;
  /** File names of the uploaded SSL files (their content never comes back). */
  sslCa?: string | null;
  sslCert?: string | null;
  sslKey?: string | null;
}

const FILE_LABELS = { sslCa: 'CA certificate', sslCert: 'Client certificate', sslKey: 'Client key' } as const;

const SQL = new Set(['postgres', 'mysql']);
const SECRET = '********';

/** The fields each kind of source is configured with. */
function fieldsFor(type: string): { name: keyof Connection; label: string; input?: string; secret?: boolean }[] {
  if (SQL.has(type))
    return [
      { name: 'host', label: 'Host' },
      { name: 'port', label: 'Port', input: 'number' },
      { name: 'dbName', label: 'Database' },
      { name: 'username', label: 'User' },
      { name: 'password', label: 'Password', input: 'password', secret: true },
    ];
  if (type === 'mongodb') return [{ name: 'connectionString', label: 'Connection string', secret: true }];
  if (type === 'api') return [{ name: 'host', label: 'Base URL', input: 'url' }];
  return [];
}

export function Connections() {
  const { team } = useSession();
  const [providers] = useAsync(async () => (await ok(api.GET('/connection-providers'))) as unknown as Provider[], []);
  const [connections, reload] = useAsync(async () => (await ok(api.GET('/team/{team_id}/connections', { params: { path: { team_id: team.id } } }))) as unknown as Connection[], [team.id]);
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  return (
    <section aria-labelledby="connections-title">
      <h1 id="connections-title">Connections</h1>
      <Load value={connections} what="connections" retry={reload}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No connection yet: add your database or API to start querying.</p>
            </Empty>
          ) : (
            <ul className="rows">
              {list.map((c) => (
                <li key={c.id}>
                  <span>
                    <strong>{c.name}</strong> <span className="muted">{c.subType ?? c.type}</span>
                  </span>
                  <button type="button" onClick={() => setEditing(c)}>
                    Edit
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      {editing ? (
        <Load value={providers} what="connection types">
          {(list) => <ConnectionForm providers={list} connection={editing === 'new' ? null : editing} onSaved={() => (reload(), setEditing(null))} />}
        </Load>
      ) : (
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          Add a connection
        </button>
      )}
    </section>
  );
}

function ConnectionForm({ providers, connection, onSaved }: { providers: Provider[]; connection: Connection | null; onSaved: () => void }) {
  const { team } = useSession();
  const [providerId, setProviderId] = useState(connection?.subType ?? connection?.type ?? 'postgres');
  const provider = providers.find((p) => p.id === providerId) ?? providers[0]!;
  const [values, setValues] = useState<Record<string, string>>(() => ({
    name: connection?.name ?? '',
    host: connection?.host ?? '',
    port: connection?.port === null || connection?.port === undefined ? '' : String(connection.port),
    dbName: connection?.dbName ?? '',
    username: connection?.username ?? '',
    connectionString: connection?.connectionString ?? '',
  }));
  // Secrets are never shown nor sent back: an empty field keeps the stored one.
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [ssl, setSsl] = useState(connection?.ssl ?? false);
  const [sslMode, setSslMode] = useState(connection?.sslMode ?? 'require');
  const [files, setFiles] = useState<Record<string, File>>({});
  // A new key empties the file inputs once their files are uploaded.
  const [fileInputs, setFileInputs] = useState(0);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [saved, setSaved] = useState<Connection | null>(connection);
  const [testResult, setTestResult] = useState<string | null>(null);
  const action = useAction();
  const fields = fieldsFor(provider.type);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body: Record<string, unknown> = { name: values['name'], type: provider.type, ...(provider.subType !== provider.type ? { subType: provider.subType } : {}) };
    for (const field of fields) {
      if (field.secret) {
        if (secrets[field.name]) body[field.name] = secrets[field.name];
      } else if (values[field.name] !== '') body[field.name] = values[field.name]; // the port too: a string, as the API takes it
    }
    if (SQL.has(provider.type)) Object.assign(body, { ssl, sslMode: ssl ? sslMode : null });
    const result = await action.run(async () => {
      const next = saved
        ? await ok(api.PUT('/team/{team_id}/connections/{connection_id}', { params: { path: { team_id: team.id, connection_id: saved.id } }, body: body as never }))
        : await ok(api.POST('/team/{team_id}/connections', { params: { path: { team_id: team.id } }, body: body as never }));
      let conn = next as unknown as Connection;
      if (Object.keys(files).length > 0) {
        const form = new FormData();
        for (const [part, file] of Object.entries(files)) form.append(part, file);
        const res = await fetch(`/team/${team.id}/connections/${conn.id}/files`, { method: 'POST', body: form, credentials: 'same-origin' });
        if (!res.ok) throw new Error(((await res.json().catch(() => ({}))) as { error?: string }).error ?? 'The SSL files could not be uploaded');
        conn = (await res.json()) as Connection;
      }
      return conn;
    });
    if (result) {
      const names = Object.keys(files).map((part) => FILE_LABELS[part as keyof typeof FILE_LABELS]);
      setUploaded(names.length > 0 ? `Saved with ${names.join(', ')}.` : 'Saved.');
      setSaved(result);
      setSecrets({});
      setFiles({});
      setFileInputs((n) => n + 1);
    }
  };

  const test = async () => {
    if (!saved) return;
    setTestResult(null);
    const result = await action.run(() => ok(api.GET('/team/{team_id}/connections/{connection_id}/test', { params: { path: { team_id: team.id, connection_id: saved.id } } })));
    if (result) setTestResult('Connected: the credentials work.');
  };

  return (
    <form className="panel" onSubmit={save} aria-label={saved ? `Edit ${saved.name}` : 'New connection'}>
      <h2>{saved ? `Connection: ${saved.name}` : 'New connection'}</h2>
      <Field label="Type">
        <select value={providerId} onChange={(e) => setProviderId(e.target.value)} disabled={saved !== null}>
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <p className="hint">{provider.description}</p>
      <Field label="Name">
        <input required value={values['name']} onChange={(e) => setValues({ ...values, name: e.target.value })} />
      </Field>
      {fields.map((field) =>
        field.secret ? (
          <Field key={field.name} label={field.label} {...(saved ? { hint: 'Stored and hidden; leave empty to keep it' } : {})}>
            <input type="password" autoComplete="new-password" placeholder={saved ? SECRET : ''} value={secrets[field.name] ?? ''} onChange={(e) => setSecrets({ ...secrets, [field.name]: e.target.value })} />
          </Field>
        ) : (
          <Field key={field.name} label={field.label}>
            <input type={field.input ?? 'text'} value={values[field.name] ?? ''} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })} />
          </Field>
        ),
      )}
      {fields.length === 0 ? <p className="hint">This source is configured through the API (see docs/sources.md).</p> : null}
      {SQL.has(provider.type) ? (
        <fieldset>
          <legend>SSL</legend>
          <label className="check">
            <input type="checkbox" checked={ssl} onChange={(e) => setSsl(e.target.checked)} /> Use SSL
          </label>
          {ssl ? (
            <>
              <Field label="SSL mode">
                <select value={sslMode} onChange={(e) => setSslMode(e.target.value)}>
                  {['require', 'verify-ca', 'verify-full', 'prefer'].map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </select>
              </Field>
              {(['sslCa', 'sslCert', 'sslKey'] as const).map((part) => (
                <Field key={`${part}-${fileInputs}`} label={FILE_LABELS[part]} {...(saved?.[part] ? { hint: `Stored: ${saved[part]} (choose a file to replace it)` } : {})}>
                  <input type="file" accept=".pem,.crt,.cer,.key,text/plain" onChange={(e) => e.target.files?.[0] && setFiles({ ...files, [part]: e.target.files[0] })} />
                </Field>
              ))}
            </>
          ) : null}
        </fieldset>
      ) : null}
      <ErrorBox error={action.error} />
      {uploaded ? (
        <p className="success" role="status">
          {uploaded}
        </p>
      ) : null}
      {testResult ? (
        <p className="success" role="status">
          {testResult}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={action.busy}>
          Save connection
        </button>
        <button type="button" onClick={() => void test()} disabled={!saved || action.busy}>
          Test connection
        </button>
        {saved ? (
          <button type="button" className="link" onClick={onSaved}>
            Done
          </button>
        ) : null}
      </div>
    </form>
  );
}
