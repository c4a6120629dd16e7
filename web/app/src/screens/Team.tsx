import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { oneOf } from '../api/narrow';
import { keys, membersQuery, personalKeysQuery, teamKeysQuery } from '../api/queries';
import type { Member, PersonalApiKey, Role } from '../api/types';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, mutationsState } from '../ui';
import { DashboardPicker, isProjectRole } from './DashboardPicker';
import { Invitations } from './Invitations';

const ROLES: Role[] = ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'];
const roleOf = (value: string) => oneOf(ROLES, value) ?? 'projectViewer';
export function Members() {
  const { team, me } = useSession();
  const client = useQueryClient();
  const members = useQuery(membersQuery(team.id));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('projectViewer');
  const [projects, setProjects] = useState<number[]>([]);
  const path = { team_id: team.id };
  const reload = () => client.invalidateQueries({ queryKey: keys.members(team.id) });
  const add = useMutation({
    mutationFn: () => ok(api.POST('/team/{team_id}/members', { params: { path }, body: { email, role, ...(isProjectRole(role) ? { projects } : {}) } })),
    onSuccess: () => {
      setEmail('');
      return reload();
    },
  });
  const change = useMutation({
    mutationFn: ({ userId, next, projects: covered }: { userId: number; next?: Role; projects?: number[] }) =>
      ok(api.PUT('/team/{team_id}/members/{user_id}', { params: { path: { ...path, user_id: userId } }, body: { ...(next ? { role: next } : {}), ...(covered ? { projects: covered } : {}) } })),
    // The row shows the change at once (a checkbox that waited for the server would look dead);
    // a refused change puts the row back, and the list is read again either way.
    onMutate: async ({ userId, next, projects: covered }) => {
      const key = keys.members(team.id);
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Member[]>(key);
      client.setQueryData<Member[]>(key, (rows) =>
        rows?.map((row) => (row.user_id === userId ? { ...row, ...(next ? { role: next } : {}), ...(covered ? { projects: covered } : {}) } : row)),
      );
      return { before };
    },
    onError: (_error, _input, context) => client.setQueryData(keys.members(team.id), context?.before),
    onSettled: reload,
  });
  const remove = useMutation({
    mutationFn: (userId: number) => ok(api.DELETE('/team/{team_id}/members/{user_id}', { params: { path: { ...path, user_id: userId } } })),
    // Leaving the team changes your teams, not only its members.
    onSuccess: (_answer, userId) => (userId === me.id ? client.invalidateQueries({ queryKey: keys.teams }) : reload()),
  });
  const { busy, error } = mutationsState(add, change, remove);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members of {team.name}</h1>
      <ErrorBox error={error} />
      <Load query={members} what="members">
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
                    <th scope="col">Dashboards</th>
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
                        <select aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => change.mutate({ userId: m.user_id, next: roleOf(e.target.value) })}>
                          {ROLES.map((r) => (
                            <option key={r}>{r}</option>
                          ))}
                        </select>
                      </td>
                      <td>
                        {isProjectRole(m.role) ? (
                          <details>
                            <summary>{m.projects.length === 0 ? 'None yet' : `${m.projects.length} dashboard${m.projects.length === 1 ? '' : 's'}`}</summary>
                            <DashboardPicker label={`Dashboards of ${m.name}`} value={m.projects} onChange={(next) => change.mutate({ userId: m.user_id, projects: next })} />
                          </details>
                        ) : (
                          <span className="muted">All</span>
                        )}
                      </td>
                      <td>
                        <button type="button" className="danger" onClick={() => remove.mutate(m.user_id)}>
                          {m.user_id === me.id ? 'Leave' : 'Remove'}
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
      <form className="panel inline-form" onSubmit={submit} aria-label="Add a member">
        <Field label="Email of an existing user">
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Role">
          <select value={role} onChange={(e) => setRole(roleOf(e.target.value))}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        {isProjectRole(role) ? <DashboardPicker label="Dashboards of the new member" value={projects} onChange={setProjects} /> : null}
        <button type="submit" className="primary" disabled={busy}>
          Add member
        </button>
      </form>
      <Invitations />
    </section>
  );
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
  const client = useQueryClient();
  const apiKeys = useQuery(teamKeysQuery(team.id));
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('projectViewer');
  const [projects, setProjects] = useState<number[]>([]);
  const [shown, setShown] = useState<string | null>(null);
  const path = { team_id: team.id };
  const reload = () => client.invalidateQueries({ queryKey: keys.teamKeys(team.id) });
  const create = useMutation({
    mutationFn: () => ok(api.POST('/team/{team_id}/apikey', { params: { path }, body: { name, role, ...(isProjectRole(role) ? { projects } : {}) } })),
    onSuccess: ({ token }) => {
      setShown(token);
      setName('');
      return reload();
    },
  });
  const remove = useMutation({ mutationFn: (id: number) => ok(api.DELETE('/team/{team_id}/apikey/{id}', { params: { path: { ...path, id } } })), onSuccess: reload });
  const { busy, error } = mutationsState(create, remove);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <div className="panel" role="region" aria-labelledby="team-keys-title">
      <h2 id="team-keys-title">Team keys of {team.name}</h2>
      {shown ? <ShownOnce token={shown} onDone={() => setShown(null)} /> : null}
      <ErrorBox error={error} />
      <Load query={apiKeys} what="API keys">
        {(list) =>
          list.length === 0 ? (
            <Empty>No API key yet.</Empty>
          ) : (
            <ul className="rows" aria-label="Team keys">
              {list.map((k) => (
                <li key={k.id}>
                  <span>
                    {k.name}{' '}
                    <span className="muted">
                      ({k.role}
                      {isProjectRole(k.role) ? `, ${k.projects.length} dashboard${k.projects.length === 1 ? '' : 's'}` : ''})
                    </span>
                  </span>
                  <button type="button" className="danger" onClick={() => remove.mutate(k.id)}>
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <form className="inline-form" onSubmit={submit} aria-label="New team key">
        <Field label="Key name">
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Role">
          <select value={role} onChange={(e) => setRole(roleOf(e.target.value))}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        {isProjectRole(role) ? <DashboardPicker label="Dashboards the key reaches" value={projects} onChange={setProjects} /> : null}
        <button type="submit" className="primary" disabled={busy}>
          Create key
        </button>
      </form>
    </div>
  );
}

function PersonalKeys() {
  const client = useQueryClient();
  const apiKeys = useQuery(personalKeysQuery);
  const [name, setName] = useState('');
  const [ceiling, setCeiling] = useState<Role | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const reload = () => client.invalidateQueries({ queryKey: keys.personalKeys });
  const create = useMutation({
    mutationFn: () => ok(api.POST('/user/apikey', { body: { name, ceiling } })),
    onSuccess: ({ token }) => {
      setShown(token);
      setName('');
      return reload();
    },
  });
  const revoke = useMutation({ mutationFn: (key: PersonalApiKey) => ok(api.DELETE('/user/apikey/{id}', { params: { path: { id: key.id } } })), onSuccess: reload });
  const { busy, error } = mutationsState(create, revoke);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <div className="panel" role="region" aria-labelledby="personal-keys-title">
      <h2 id="personal-keys-title">Your personal keys</h2>
      {shown ? <ShownOnce token={shown} onDone={() => setShown(null)} /> : null}
      <ErrorBox error={error} />
      <Load query={apiKeys} what="personal keys">
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
                        <button type="button" className="danger" onClick={() => revoke.mutate(k)} disabled={busy}>
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
      <form className="inline-form" onSubmit={submit} aria-label="New personal key">
        <Field label="Personal key name">
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Ceiling" hint="The highest role the key acts with in any team">
          <select value={ceiling ?? ''} onChange={(e) => setCeiling(oneOf(ROLES, e.target.value) ?? null)}>
            <option value="">Your own role in each team</option>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          Create personal key
        </button>
      </form>
    </div>
  );
}
