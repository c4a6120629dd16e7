import type { Role } from '../../src/platform/authorization.js';
import { now, toJson } from '../../src/store/columns.js';
import type { TestApp } from './app.js';

export interface Person {
  token: string;
  userId: number;
  teamId: number;
  email: string;
}

const people = new WeakMap<TestApp, Map<string, Promise<Person>>>();

/**
 * A user with a team of their own, signed up on first use and then the same for every test on this
 * app (one app per suite): for tests that need *a* user, such as an outsider who gets a 403 or
 * another team for a tenancy check. A test that changes the user or their team's members, or whose
 * answer depends on what their team holds, signs up its own with `t.signup`.
 */
export function sharedUser(t: TestApp, name: string): Promise<Person> {
  let named = people.get(t);
  if (!named) people.set(t, (named = new Map()));
  let found = named.get(name);
  if (!found) named.set(name, (found = t.signup(name)));
  return found;
}

/** Inserts a project row directly (for suites that only need one to exist). */
export async function insertProject(t: TestApp, teamId: number, name = 'Dashboard'): Promise<number> {
  const at = now();
  const row = await t.container.store.db
    .insertInto('projects')
    .values({ team_id: teamId, name, brewName: `${name.toLowerCase().replace(/\W+/g, '-')}-${Math.random().toString(36).slice(2, 8)}`, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Dataset rows straight into the store, for suites that do not depend on the dataset routes. */
export async function insertDataset(t: TestApp, teamId: number, name: string, projectIds: number[] = []): Promise<number> {
  const at = now();
  const row = await t.container.store.db
    .insertInto('datasets')
    .values({ team_id: teamId, name, project_ids: toJson(projectIds), draft: false, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface RoleTeam {
  teamId: number;
  projectId: number;
  people: Record<Role | 'stranger', Person>;
}

/** A team with one member of every role (project roles own `projectId`) and a stranger. */
export async function teamWithEveryRole(t: TestApp): Promise<RoleTeam> {
  const owner = await t.signup('Owner');
  const projectId = await insertProject(t, owner.teamId);
  const people = { teamOwner: owner } as Record<Role | 'stranger', Person>;
  for (const role of ['teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
    const person = await t.signup(role);
    const res = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/members`,
      token: owner.token,
      payload: { email: person.email, role, projects: role.startsWith('project') ? [projectId] : [] },
    });
    if (res.statusCode !== 200) throw new Error(`adding ${role} failed: ${res.body}`);
    people[role] = person;
  }
  people.stranger = await t.signup('Stranger');
  return { teamId: owner.teamId, projectId, people };
}

export const ROLE_NAMES = ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer', 'stranger'] as const;

/** The body of `POST /team/{id}/connections` for a Postgres database at `url` (its user and password as in the URL). */
export function postgresConnection(name: string, url: URL) {
  return {
    name,
    type: 'postgres',
    host: url.hostname,
    port: url.port || '5432',
    dbName: url.pathname.slice(1),
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password) || undefined,
  };
}
