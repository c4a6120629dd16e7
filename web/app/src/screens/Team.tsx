import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, useAction, useAsync } from '../ui';

const ROLES = ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const;
type Role = (typeof ROLES)[number];

interface Member {
  id: number;
  name: string;
  email: string;
  role: Role;
  projects: number[];
}

export function Members() {
  const { team, me } = useSession();
  const [members, reload] = useAsync(async () => (await ok(api.GET('/team/{team_id}/members', { params: { path: { team_id: team.id } } }))) as unknown as Member[], [team.id]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('projectViewer');
  const action = useAction();
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => ok(api.POST('/team/{team_id}/members', { params: { path: { team_id: team.id } }, body: { email, role } })))) {
      setEmail('');
      reload();
    }
  };
  const change = (userId: number, next: Role) => action.run(async () => (await ok(api.PUT('/team/{team_id}/members/{user_id}', { params: { path: { team_id: team.id, user_id: userId } }, body: { role: next } })), reload()));
  const remove = (userId: number) => action.run(async () => (await ok(api.DELETE('/team/{team_id}/members/{user_id}', { params: { path: { team_id: team.id, user_id: userId } } })), reload()));
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members of {team.name}</h1>
      <ErrorBox error={action.error} />
      <Load value={members} what="members" retry={reload}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No members.</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((m) => (
                    <tr key={m.id}>
                      <td>{m.name}</td>
                      <td>{m.email}</td>
                      <td>
                        <select aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => void change(m.id, e.target.value as Role)}>
                          {ROLES.map((r) => (
                            <option key={r}>{r}</option>
                          ))}
                        </select>
                      </td>
                      <td>
                        <button type="button" className="danger" onClick={() => void remove(m.id)}>
                          {m.id === me.id ? 'Leave' : 'Remove'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Load>
      <form className="panel inline-form" onSubmit={add} aria-label="Add a member">
        <Field label="Email of an existing user">
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Role">
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <button type="submit" className="primary" disabled={action.busy}>
          Add member
        </button>
      </form>
    </section>
  );
}

interface Key {
  id: number;
  name: string;
  role: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

interface PersonalKey {
  id: number;
  name: string;
  ceiling: Role | null;
  createdAt: string;
  lastUsedAt: string | null;
}

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : 'never');

/** A token shown once, right after it was created. */
function ShownOnce({ token, onDone }: { token: string; onDone: () => void }) {
  return (
    <div className="panel notice" role="status">
      <p>Copy this key now; it is shown only once.</p>
      <code className="secret">{token}</code>
      <div className="actions">
        <button type="button" onClick={() => void navigator.clipboard?.writeText(token)}>
          Copy
        </button>
        <button type="button" className="link" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** Team keys (act inside this team with their role) and your personal keys (act as you in all your teams). */
export function ApiKeys() {
  const { team } = useSession();
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <p className="hint">
        A team key acts inside {team.name} only, with its role. A personal key acts as you in every team you belong to, at most with its ceiling role. Either is
        sent as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <TeamKeys />
      <PersonalKeys />
    </section>
  );
}

function TeamKeys() {
  const { team } = useSession();
  const [keys, reload] = useAsync(async () => (await ok(api.GET('/team/{team_id}/apikey', { params: { path: { team_id: team.id } } }))) as unknown as Key[], [team.id]);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('projectViewer');
  const [shown, setShown] = useState<string | null>(null);
  const action = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const key = await action.run(() => ok(api.POST('/team/{team_id}/apikey', { params: { path: { team_id: team.id } }, body: { name, role } })));
    if (key) {
      setShown((key as { token: string }).token);
      setName('');
      reload();
    }
  };
  const remove = (id: number) => action.run(async () => (await ok(api.DELETE('/team/{team_id}/apikey/{id}', { params: { path: { team_id: team.id, id } } })), reload()));
  return (
    <div className="panel" role="region" aria-labelledby="team-keys-title">
      <h2 id="team-keys-title">Team keys of {team.name}</h2>
      {shown ? <ShownOnce token={shown} onDone={() => setShown(null)} /> : null}
      <ErrorBox error={action.error} />
      <Load value={keys} what="API keys" retry={reload}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No API key yet.</Empty>
          ) : (
            <ul className="rows" aria-label="Team keys">
              {list.map((k) => (
                <li key={k.id}>
                  <span>
                    {k.name} <span className="muted">({k.role})</span>
                  </span>
                  <button type="button" className="danger" onClick={() => void remove(k.id)}>
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <form className="inline-form" onSubmit={create} aria-label="New team key">
        <Field label="Key name">
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Role">
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <button type="submit" className="primary" disabled={action.busy}>
          Create key
        </button>
      </form>
    </div>
  );
}

function PersonalKeys() {
  const [keys, reload] = useAsync(async () => (await ok(api.GET('/user/apikey'))) as unknown as PersonalKey[], []);
  const [name, setName] = useState('');
  const [ceiling, setCeiling] = useState<Role | ''>('');
  const [shown, setShown] = useState<string | null>(null);
  const action = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const key = await action.run(() => ok(api.POST('/user/apikey', { body: { name, ceiling: ceiling === '' ? null : ceiling } })));
    if (key) {
      setShown((key as { token: string }).token);
      setName('');
      reload();
    }
  };
  const revoke = (key: PersonalKey) => action.run(async () => (await ok(api.DELETE('/user/apikey/{id}', { params: { path: { id: key.id } } })), reload()));
  return (
    <div className="panel" role="region" aria-labelledby="personal-keys-title">
      <h2 id="personal-keys-title">Your personal keys</h2>
      {shown ? <ShownOnce token={shown} onDone={() => setShown(null)} /> : null}
      <ErrorBox error={action.error} />
      <Load value={keys} what="personal keys" retry={reload}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No personal key yet.</Empty>
          ) : (
            <div className="table-wrap">
              <table aria-label="Personal keys">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Ceiling</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((k) => (
                    <tr key={k.id} data-key-id={k.id}>
                      <td>{k.name}</td>
                      <td>{k.ceiling ?? 'your own role'}</td>
                      <td>{when(k.createdAt)}</td>
                      <td>{when(k.lastUsedAt)}</td>
                      <td>
                        <button type="button" className="danger" onClick={() => void revoke(k)} disabled={action.busy}>
                          Revoke {k.name}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Load>
      <form className="inline-form" onSubmit={create} aria-label="New personal key">
        <Field label="Personal key name">
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Ceiling" hint="The highest role the key acts with in any team">
          <select value={ceiling} onChange={(e) => setCeiling(e.target.value as Role | '')}>
            <option value="">Your own role in each team</option>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <button type="submit" className="primary" disabled={action.busy}>
          Create personal key
        </button>
      </form>
    </div>
  );
}
