import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { oneOf } from '../api/narrow';
import { connectionsQuery, keys, providersQuery } from '../api/queries';
import type { Connection, ConnectionBody, ConnectionProvider } from '../api/types';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, mutationsState, Success } from '../ui';

const FILE_LABELS = { sslCa: 'CA certificate', sslCert: 'Client certificate', sslKey: 'Client key' } as const;
type FilePart = keyof typeof FILE_LABELS;
const FILE_PARTS: FilePart[] = ['sslCa', 'sslCert', 'sslKey'];

type SslMode = NonNullable<Connection['sslMode']>;
const SSL_MODES: SslMode[] = ['require', 'verify-ca', 'verify-full', 'prefer'];

const SQL = new Set(['postgres', 'mysql']);
const SECRET = '********';

/** The text fields of a connection (the port too: a string, as the API takes it). */
type TextField = 'host' | 'port' | 'dbName' | 'username' | 'password' | 'connectionString';

/** The fields each kind of source is configured with. */
function fieldsFor(type: string): { name: TextField; label: string; input?: string; secret?: boolean }[] {
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
  const client = useQueryClient();
  const providers = useQuery(providersQuery);
  const connections = useQuery(connectionsQuery(team.id));
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  return (
    <section aria-labelledby="connections-title">
      <h1 id="connections-title">Connections</h1>
      <Load query={connections} what="connections">
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
        <Load query={providers} what="connection types">
          {(list) => (
            <ConnectionForm
              providers={list}
              connection={editing === 'new' ? null : editing}
              onSaved={() => client.invalidateQueries({ queryKey: keys.connections(team.id) })}
              onDone={() => setEditing(null)}
            />
          )}
        </Load>
      ) : (
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          Add a connection
        </button>
      )}
    </section>
  );
}

/** Uploads SSL files to a saved connection: multipart, which the typed client does not describe. */
async function uploadFiles(teamId: number, connectionId: number, files: Partial<Record<FilePart, File>>): Promise<Connection> {
  const form = new FormData();
  for (const [part, file] of Object.entries(files)) form.append(part, file);
  const res = await fetch(`/team/${teamId}/connections/${connectionId}/files`, { method: 'POST', body: form, credentials: 'same-origin' });
  if (!res.ok) throw new Error(((await res.json().catch(() => ({}))) as { error?: string }).error ?? 'The SSL files could not be uploaded');
  return (await res.json()) as Connection;
}

function ConnectionForm({ providers, connection, onSaved, onDone }: { providers: ConnectionProvider[]; connection: Connection | null; onSaved: () => Promise<void>; onDone: () => void }) {
  const { team } = useSession();
  const [providerId, setProviderId] = useState<string>(connection?.subType ?? connection?.type ?? 'postgres');
  const provider = providers.find((p) => p.id === providerId) ?? providers[0]!;
  const [values, setValues] = useState<Record<'name' | TextField, string>>(() => ({
    name: connection?.name ?? '',
    host: connection?.host ?? '',
    port: connection?.port ?? '',
    dbName: connection?.dbName ?? '',
    username: connection?.username ?? '',
    password: '',
    connectionString: connection?.connectionString ?? '',
  }));
  // Secrets are never shown nor sent back: an empty field keeps the stored one.
  const [secrets, setSecrets] = useState<Partial<Record<TextField, string>>>({});
  const [ssl, setSsl] = useState(connection?.ssl ?? false);
  const [sslMode, setSslMode] = useState<SslMode>(connection?.sslMode ?? 'require');
  const [files, setFiles] = useState<Partial<Record<FilePart, File>>>({});
  // A new key empties the file inputs once their files are uploaded.
  const [fileInputs, setFileInputs] = useState(0);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [saved, setSaved] = useState<Connection | null>(connection);
  const [testResult, setTestResult] = useState<string | null>(null);
  const fields = fieldsFor(provider.type);

  const save = useMutation({
    mutationFn: async () => {
      const body: ConnectionBody = { name: values.name, type: provider.type, ...(provider.subType !== provider.type ? { subType: provider.subType } : {}) };
      for (const field of fields) {
        if (field.secret) {
          if (secrets[field.name]) body[field.name] = secrets[field.name];
        } else if (values[field.name] !== '') body[field.name] = values[field.name];
      }
      if (SQL.has(provider.type)) {
        body.ssl = ssl;
        body.sslMode = ssl ? sslMode : null;
      }
      const path = { team_id: team.id };
      const next = saved
        ? await ok(api.PUT('/team/{team_id}/connections/{connection_id}', { params: { path: { ...path, connection_id: saved.id } }, body }))
        : await ok(api.POST('/team/{team_id}/connections', { params: { path }, body }));
      return Object.keys(files).length > 0 ? uploadFiles(team.id, next.id, files) : next;
    },
    onSuccess: (result) => {
      const names = FILE_PARTS.filter((part) => files[part]).map((part) => FILE_LABELS[part]);
      setUploaded(names.length > 0 ? `Saved with ${names.join(', ')}.` : 'Saved.');
      setSaved(result);
      setSecrets({});
      setFiles({});
      setFileInputs((n) => n + 1);
      return onSaved();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  const test = useMutation({
    mutationFn: (connection: Connection) => ok(api.GET('/team/{team_id}/connections/{connection_id}/test', { params: { path: { team_id: team.id, connection_id: connection.id } } })),
    onMutate: () => setTestResult(null),
    onSuccess: () => setTestResult('Connected: the credentials work.'),
  });
  const { busy, error } = mutationsState(save, test);

  return (
    <form className="panel" onSubmit={submit} aria-label={saved ? `Edit ${saved.name}` : 'New connection'}>
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
        <input required value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} />
      </Field>
      {fields.map((field) =>
        field.secret ? (
          <Field key={field.name} label={field.label} {...(saved ? { hint: 'Stored and hidden; leave empty to keep it' } : {})}>
            <input type="password" autoComplete="new-password" placeholder={saved ? SECRET : ''} value={secrets[field.name] ?? ''} onChange={(e) => setSecrets({ ...secrets, [field.name]: e.target.value })} />
          </Field>
        ) : (
          <Field key={field.name} label={field.label}>
            <input type={field.input ?? 'text'} value={values[field.name]} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })} />
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
                <select value={sslMode} onChange={(e) => setSslMode(oneOf(SSL_MODES, e.target.value) ?? 'require')}>
                  {SSL_MODES.map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </select>
              </Field>
              {FILE_PARTS.map((part) => (
                <Field key={`${part}-${fileInputs}`} label={FILE_LABELS[part]} {...(saved?.[part] ? { hint: `Stored: ${saved[part]} (choose a file to replace it)` } : {})}>
                  <input type="file" accept=".pem,.crt,.cer,.key,text/plain" onChange={(e) => e.target.files?.[0] && setFiles({ ...files, [part]: e.target.files[0] })} />
                </Field>
              ))}
            </>
          ) : null}
        </fieldset>
      ) : null}
      <ErrorBox error={error} />
      <Success message={uploaded} />
      <Success message={testResult} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Save connection
        </button>
        <button type="button" onClick={() => saved && test.mutate(saved)} disabled={!saved || busy}>
          Test connection
        </button>
        {saved ? (
          <button type="button" className="link" onClick={onDone}>
            Done
          </button>
        ) : null}
      </div>
    </form>
  );
}
