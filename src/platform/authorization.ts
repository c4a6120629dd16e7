/**
 * The role table of the API contract, in one place. Services ask `can(membership, action)` and
 * narrow project-scoped reads with `projectScope(membership)`; nothing else decides access.
 */
export const ROLES = ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = {
  teamOwner: 5,
  teamAdmin: 4,
  projectAdmin: 3,
  projectEditor: 2,
  projectViewer: 1,
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** What a team_roles row grants: a role, and the projects it applies to for project roles. */
export interface Grant {
  readonly role: Role;
  readonly projects: readonly number[];
}

/**
 * A grant from the stored columns. A role outside the known set can only come from manual
 * edits; it is read as the weakest role.
 */
export function grantFromColumns(role: string, projects: readonly unknown[]): Grant {
  return { role: isRole(role) ? role : 'projectViewer', projects: projects.map(Number).filter(Number.isInteger) };
}

export function roleRank(role: Role): number {
  return RANK[role];
}

export function isTeamWide(role: Role): boolean {
  return role === 'teamOwner' || role === 'teamAdmin';
}

export type Action =
  | 'team:read'
  | 'team:readFull'
  | 'team:update'
  | 'team:delete'
  | 'members:manage'
  | 'apikeys:manage'
  | 'connection:read'
  | 'connection:readSecrets'
  | 'connection:write'
  | 'dataset:read'
  | 'dataset:write'
  | 'dataset:run'
  | 'project:create'
  | 'project:read'
  | 'project:update'
  | 'project:delete'
  /** headerCode/footerCode run on public pages: only team-wide roles write them. */
  | 'project:code'
  | 'chart:read'
  | 'chart:write'
  | 'chart:query'
  | 'chart:persist'
  | 'share:manage'
  /** Saved queries: Chartbrew grants them to team-wide roles only. */
  | 'savedQuery:manage'
  /** Alert channels: editors of charts pick them for their alerts; team-wide roles manage them. */
  | 'integration:read'
  | 'integration:write';

const TEAM_ADMIN_ACTIONS: readonly Action[] = [
  'team:read',
  'team:readFull',
  'team:update',
  'members:manage',
  'apikeys:manage',
  'connection:read',
  'connection:readSecrets',
  'connection:write',
  'dataset:read',
  'dataset:write',
  'dataset:run',
  'project:create',
  'project:read',
  'project:update',
  'project:delete',
  'project:code',
  'chart:read',
  'chart:write',
  'chart:query',
  'chart:persist',
  'share:manage',
  'savedQuery:manage',
  'integration:read',
  'integration:write',
];

const MATRIX: Record<Role, ReadonlySet<Action>> = {
  teamOwner: new Set<Action>([...TEAM_ADMIN_ACTIONS, 'team:delete']),
  teamAdmin: new Set<Action>(TEAM_ADMIN_ACTIONS),
  projectAdmin: new Set<Action>([
    'team:read',
    'connection:read',
    'dataset:read',
    'dataset:write',
    'dataset:run',
    'project:read',
    'project:update',
    'chart:read',
    'chart:write',
    'chart:query',
    'chart:persist',
    'share:manage',
    'integration:read',
  ]),
  projectEditor: new Set<Action>([
    'team:read',
    'connection:read',
    'dataset:read',
    'dataset:run',
    'project:read',
    'project:update',
    'chart:read',
    'chart:write',
    'chart:query',
    'chart:persist',
    'integration:read',
  ]),
  projectViewer: new Set<Action>(['team:read', 'project:read', 'chart:read', 'chart:query']),
};

/** What an actor is inside one team: its role and, for project roles, the projects it may touch. */
export interface Membership {
  readonly teamId: number;
  readonly userId: number | null;
  readonly role: Role;
  readonly projects: readonly number[];
}

export function can(membership: Membership, action: Action): boolean {
  return MATRIX[membership.role].has(action);
}

/** `undefined` = every project of the team; otherwise only these project ids. */
export function projectScope(membership: Membership): readonly number[] | undefined {
  return isTeamWide(membership.role) ? undefined : membership.projects;
}

/** True when the membership may see a resource attached to these projects ("own" in the contract). */
export function ownsAny(membership: Membership, projectIds: readonly (number | string)[] | null | undefined): boolean {
  const scope = projectScope(membership);
  if (scope === undefined) return true;
  return (projectIds ?? []).some((id) => scope.includes(Number(id)));
}

export function ownsProject(membership: Membership, projectId: number): boolean {
  const scope = projectScope(membership);
  return scope === undefined || scope.includes(projectId);
}

/** Nobody grants a role above their own; only a teamOwner makes owners. */
export function mayGrant(granter: Role, role: Role): boolean {
  if (role === 'teamOwner') return granter === 'teamOwner';
  return RANK[granter] >= RANK[role];
}

/** A role with the projects it covers; `projects` is ignored for team-wide roles. */
export interface Grant {
  readonly role: Role;
  readonly projects: readonly number[];
}

/**
 * The lesser of two grants: the lower role, on the projects both reach. A key never has more
 * rights than the grant it is capped by (its creator's current membership, or a ceiling).
 * `projects` is `undefined` when the result reaches every project of the team although its role is
 * project-scoped (a team-wide member capped by a project-role ceiling): the caller fills in the list.
 */
export function lesserGrant(a: Grant, b: Grant): { role: Role; projects: readonly number[] | undefined } {
  const role = RANK[a.role] <= RANK[b.role] ? a.role : b.role;
  if (isTeamWide(role)) return { role, projects: [] };
  const scopeA = isTeamWide(a.role) ? undefined : a.projects;
  const scopeB = isTeamWide(b.role) ? undefined : b.projects;
  if (scopeA === undefined) return { role, projects: scopeB };
  if (scopeB === undefined) return { role, projects: scopeA };
  const inB = new Set(scopeB);
  return { role, projects: scopeA.filter((id) => inB.has(id)) };
}
