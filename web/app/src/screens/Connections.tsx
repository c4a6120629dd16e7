import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { oneOf } from '../api/narrow';
import { connectionsQuery, keys, providersQuery } from '../api/queries';
import type { Connection, ConnectionBody, ConnectionProvider } from '../api/types';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, mutationsState, Success } from '../ui';
import { headerRows, headersOption, parseConnectionString, specFor, type HttpAuthType, type TextFieldSpec } from './connection-fields';
import './Data.css';

const FILE_LABELS = { sslCa: 'CA certificate', sslCert: 'Client certificate', sslKey: 'Client key' } as const;
type FilePart = keyof typeof FILE_LABELS;
const FILE_PARTS: FilePart[] = ['sslCa', 'sslCert', 'sslKey'];

type SslMode = NonNullable<Connection['sslMode']>;
const SSL_MODES: SslMode[] = ['require', 'verify-ca', 'verify-full', 'prefer'];

const SECRET = '********';

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

type FieldName = TextFieldSpec['name'];
/** The test body is the create body with an optional id; the create body's read-only keys are absent from both. */
type TestBody = Omit<ConnectionBody, 'id'>;

function ConnectionForm({ providers, connection, onSaved, onDone }: { providers: ConnectionProvider[]; connection: Connection | null; onSaved: () => Promise<void>; onDone: () => void }) {
  const { team } = useSession();
  const [providerId, setProviderId] = useState<string>(connection?.subType ?? connection?.type ?? 'postgres');
  const provider = providers.find((p) => p.id === providerId) ?? providers[0]!;
  const spec = specFor(provider.type);
  const [name, setName] = useState(connection?.name ?? '');
  // What the fields show: the stored values, or a new connection's defaults (its type's port).
  const initial = (): Record<FieldName, string> => ({
    host: connection?.host ?? (provider.type === 'customerio' ? 'us' : ''),
    port: connection?.port ?? spec.defaultPort ?? '',
    dbName: connection?.dbName ?? '',
    username: connection?.username ?? '',
    password: '',
    connectionString: provider.type === 'realtimedb' ? (connection?.connectionString ?? '') : '',
  });
  const [values, setValues] = useState<Record<FieldName, string>>(initial);
  // Secrets are never shown nor sent back: an empty field keeps the stored one.
  const [secrets, setSecrets] = useState<Partial<Record<FieldName, string>>>({});
  const [pasted, setPasted] = useState('');
  const [pasteNote, setPasteNote] = useState<string | null>(null);
  const [ssl, setSsl] = useState(connection?.ssl ?? false);
  const [sslMode, setSslMode] = useState<SslMode>(connection?.sslMode ?? 'require');
  const [serviceAccount, setServiceAccount] = useState('');
  const [authType, setAuthType] = useState<HttpAuthType | 'oauth' | 'service_account'>(() => {
    const stored = connection?.authentication?.type;
    if (provider.type === 'googleAnalytics') return stored === 'oauth' ? 'oauth' : 'service_account';
    return stored === 'bearer_token' || stored === 'basic_auth' ? stored : 'no_auth';
  });
  const [authUser, setAuthUser] = useState(connection?.authentication?.user ?? '');
  const [authSecrets, setAuthSecrets] = useState<{ token?: string; pass?: string }>({});
  const [headers, setHeaders] = useState(() => headerRows(connection?.options));
  const [files, setFiles] = useState<Partial<Record<FilePart, File>>>({});
  // A new key empties the file inputs once their files are uploaded.
  const [fileInputs, setFileInputs] = useState(0);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [saved, setSaved] = useState<Connection | null>(connection);
  const [testResult, setTestResult] = useState<string | null>(null);

  const changeType = (id: string) => {
    const next = providers.find((p) => p.id === id);
    setProviderId(id);
    // A new connection takes the new type's default port, unless one was typed.
    const port = next ? specFor(next.type).defaultPort : undefined;
    setValues((v) => ({ ...v, port: v.port === '' || v.port === spec.defaultPort ? (port ?? '') : v.port, host: next?.type === 'customerio' ? 'us' : v.host === 'us' || v.host === 'eu' ? '' : v.host }));
    setAuthType(next?.type === 'googleAnalytics' ? 'service_account' : 'no_auth');
  };

  const paste = (text: string) => {
    setPasted(text);
    const found = parseConnectionString(text);
    if (!found) {
      setPasteNote(text.trim() === '' ? null : 'Not a connection string this form reads (postgres://, mysql:// or mongodb://).');
      return;
    }
    if (!saved && providers.some((p) => p.id === found.type)) setProviderId(found.type);
    const { password, connectionString, ...plain } = found.fields;
    setValues((v) => ({ ...v, ...plain }));
    setSecrets((s) => ({ ...s, ...(password !== undefined ? { password } : {}), ...(connectionString !== undefined ? { connectionString } : {}) }));
    if (found.ssl !== undefined) setSsl(found.ssl);
    setPasteNote(`Filled the ${found.type === 'mongodb' ? 'MongoDB connection string' : 'host, port, database, user and password'} from it.`);
  };

  /** The body of the form as it is now: for saving, and for testing before (or without) saving. */
  const body = (): ConnectionBody => {
    const out: ConnectionBody = { name: name || 'Untitled connection', type: provider.type, ...(provider.subType !== provider.type ? { subType: provider.subType } : {}) };
    for (const field of spec.fields) {
      if (field.secret) {
        if (secrets[field.name]) out[field.name] = secrets[field.name];
      } else if (values[field.name] !== '' || (saved && (saved[field.name] ?? '') !== '')) out[field.name] = values[field.name] === '' ? null : values[field.name];
    }
    if (spec.ssl) {
      out.ssl = ssl;
      out.sslMode = ssl ? sslMode : null;
    }
    if (spec.serviceAccount && authType !== 'oauth' && serviceAccount.trim() !== '') {
      out.firebaseServiceAccount = JSON.parse(serviceAccount) as Record<string, unknown>;
    }
    if (spec.auth === 'http') {
      out.authentication =
        authType === 'bearer_token'
          ? { type: 'bearer_token', ...(authSecrets.token ? { token: authSecrets.token } : {}) }
          : authType === 'basic_auth'
            ? { type: 'basic_auth', user: authUser, ...(authSecrets.pass ? { pass: authSecrets.pass } : {}) }
            : { type: 'no_auth' };
    }
    if (spec.auth === 'oauth' && authType === 'oauth') {
      out.authentication = { type: 'oauth', user: authUser, ...(authSecrets.pass ? { pass: authSecrets.pass } : {}), ...(authSecrets.token ? { token: authSecrets.token } : {}) };
    }
    if (spec.headers) out.options = headersOption(headers);
    return out;
  };

  const checkServiceAccount = () => {
    if (!spec.serviceAccount || authType === 'oauth' || serviceAccount.trim() === '') return;
    try {
      JSON.parse(serviceAccount);
    } catch {
      throw new Error('The service account key is not JSON: paste the whole key file as downloaded from Google Cloud.');
    }
  };

  const save = useMutation({
    mutationFn: async () => {
      checkServiceAccount();
      const path = { team_id: team.id };
      const next = saved
        ? await ok(api.PUT('/team/{team_id}/connections/{connection_id}', { params: { path: { ...path, connection_id: saved.id } }, body: body() }))
        : await ok(api.POST('/team/{team_id}/connections', { params: { path }, body: body() }));
      return Object.keys(files).length > 0 ? uploadFiles(team.id, next.id, files) : next;
    },
    onSuccess: (result) => {
      const names = FILE_PARTS.filter((part) => files[part]).map((part) => FILE_LABELS[part]);
      setUploaded(names.length > 0 ? `Saved with ${names.join(', ')}.` : 'Saved.');
      setSaved(result);
      setSecrets({});
      setAuthSecrets({});
      setServiceAccount('');
      setFiles({});
      setFileInputs((n) => n + 1);
      return onSaved();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  // The form as it is, saved or not: an edited connection is tested with its stored secrets for the fields left empty.
  const test = useMutation({
    mutationFn: () => {
      checkServiceAccount();
      return ok(api.POST('/team/{team_id}/connections/{connection_id}/test', { params: { path: { team_id: team.id, connection_id: saved ? String(saved.id) : provider.type } }, body: body() as TestBody }));
    },
    onMutate: () => setTestResult(null),
    onSuccess: () => setTestResult(saved ? 'Connected: the credentials work.' : 'Connected: the credentials work (not saved yet).'),
  });
  const { busy, error } = mutationsState(save, test);
  const storedSecret = (field: FieldName) => saved !== null && Boolean(saved[field]);

  return (
    <form className="panel" onSubmit={submit} aria-label={saved ? `Edit ${saved.name}` : 'New connection'}>
      <h2>{saved ? `Connection: ${saved.name}` : 'New connection'}</h2>
      <Field label="Type">
        <select value={providerId} onChange={(e) => changeType(e.target.value)} disabled={saved !== null}>
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <p className="hint">{provider.description}</p>
      <Field label="Name">
        <input required value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      {spec.pastes ? (
        <Field label="Paste a connection string (optional)" hint="postgres://user:password@host:5432/db, mysql://… or mongodb://…: fills the fields below; it is not kept as typed">
          <input type="password" autoComplete="off" value={pasted} onChange={(e) => paste(e.target.value)} />
        </Field>
      ) : null}
      {pasteNote ? (
        <p className="hint" role="status">
          {pasteNote}
        </p>
      ) : null}
      {spec.fields.map((field) =>
        field.secret ? (
          <Field key={field.name} label={field.label} {...(storedSecret(field.name) ? { hint: 'Stored and hidden; leave empty to keep it' } : field.hint ? { hint: field.hint } : {})}>
            <input type="password" autoComplete="new-password" placeholder={storedSecret(field.name) ? SECRET : ''} value={secrets[field.name] ?? ''} onChange={(e) => setSecrets({ ...secrets, [field.name]: e.target.value })} />
          </Field>
        ) : field.choices ? (
          <Field key={field.name} label={field.label}>
            <select value={values[field.name]} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}>
              {field.choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <Field key={field.name} label={field.label} {...(field.hint ? { hint: field.hint } : {})}>
            <input type={field.input ?? 'text'} placeholder={field.placeholder ?? ''} value={values[field.name]} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })} />
          </Field>
        ),
      )}
      {spec.auth === 'oauth' ? (
        <Field label="Credentials">
          <select value={authType} onChange={(e) => setAuthType(e.target.value === 'oauth' ? 'oauth' : 'service_account')}>
            <option value="service_account">Service account key</option>
            <option value="oauth">OAuth refresh token</option>
          </select>
        </Field>
      ) : null}
      {spec.serviceAccount && authType !== 'oauth' ? (
        <Field
          label="Service account key (JSON)"
          hint={saved?.firebaseServiceAccount ? 'Stored, its private key hidden; paste a new key file to replace it' : 'Paste the key file downloaded from Google Cloud (IAM, Service accounts, Keys)'}
        >
          <textarea rows={5} spellCheck={false} value={serviceAccount} onChange={(e) => setServiceAccount(e.target.value)} />
        </Field>
      ) : null}
      {spec.auth === 'oauth' && authType === 'oauth' ? (
        <>
          <Field label="OAuth client id">
            <input value={authUser} onChange={(e) => setAuthUser(e.target.value)} />
          </Field>
          <Field label="OAuth client secret" {...(saved?.authentication?.pass ? { hint: 'Stored and hidden; leave empty to keep it' } : {})}>
            <input type="password" autoComplete="new-password" value={authSecrets.pass ?? ''} onChange={(e) => setAuthSecrets({ ...authSecrets, pass: e.target.value })} />
          </Field>
          <Field label="Refresh token" {...(saved?.authentication?.token ? { hint: 'Stored and hidden; leave empty to keep it' } : {})}>
            <input type="password" autoComplete="new-password" value={authSecrets.token ?? ''} onChange={(e) => setAuthSecrets({ ...authSecrets, token: e.target.value })} />
          </Field>
        </>
      ) : null}
      {spec.auth === 'http' ? (
        <fieldset>
          <legend>Authentication</legend>
          <Field label="Kind">
            <select value={authType} onChange={(e) => setAuthType(e.target.value === 'bearer_token' ? 'bearer_token' : e.target.value === 'basic_auth' ? 'basic_auth' : 'no_auth')}>
              <option value="no_auth">None</option>
              <option value="bearer_token">Bearer token</option>
              <option value="basic_auth">Basic (user and password)</option>
            </select>
          </Field>
          {authType === 'bearer_token' ? (
            <Field label="Token" {...(saved?.authentication?.token ? { hint: 'Stored and hidden; leave empty to keep it' } : {})}>
              <input type="password" autoComplete="new-password" value={authSecrets.token ?? ''} onChange={(e) => setAuthSecrets({ ...authSecrets, token: e.target.value })} />
            </Field>
          ) : null}
          {authType === 'basic_auth' ? (
            <>
              <Field label="User name">
                <input value={authUser} onChange={(e) => setAuthUser(e.target.value)} />
              </Field>
              <Field label="Password" {...(saved?.authentication?.pass ? { hint: 'Stored and hidden; leave empty to keep it' } : {})}>
                <input type="password" autoComplete="new-password" value={authSecrets.pass ?? ''} onChange={(e) => setAuthSecrets({ ...authSecrets, pass: e.target.value })} />
              </Field>
            </>
          ) : null}
        </fieldset>
      ) : null}
      {spec.headers ? (
        <fieldset>
          <legend>Headers sent with every request</legend>
          {headers.length === 0 ? <p className="hint">None.</p> : null}
          {headers.map((h, i) => (
            <div className="inline-form" key={i}>
              <Field label={`Header ${i + 1} name`}>
                <input value={h.name} onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} />
              </Field>
              <Field label={`Header ${i + 1} value`}>
                <input value={h.value} onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
              </Field>
              <button type="button" className="link" onClick={() => setHeaders(headers.filter((_x, j) => j !== i))}>
                Remove header {i + 1}
              </button>
            </div>
          ))}
          <button type="button" className="link" onClick={() => setHeaders([...headers, { name: '', value: '' }])}>
            Add a header
          </button>
        </fieldset>
      ) : null}
      {spec.ssl ? (
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
        <button type="button" onClick={() => test.mutate()} disabled={busy}>
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
