import { hashToken, newToken } from '../../crypto/tokens.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService, TeamDirectory } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { isTeamWide, mayGrant, type Role } from '../../platform/authorization.js';
import type { ApiKey, ApiKeysRepository, PersonalApiKey } from './api-keys-repository.js';

export interface NewApiKey {
  name: string;
  role?: Role;
  projects?: number[];
}

export interface ApiKeyWithToken extends ApiKey {
  token: string;
}

export interface PersonalApiKeyWithToken extends PersonalApiKey {
  token: string;
}

export interface ApiKeysDeps {
  keys: ApiKeysRepository;
  /** Whether a team exists and which dashboards it has (the teams module provides it). */
  teams: Pick<TeamDirectory, 'exists' | 'projectsOf'>;
  access: AccessService;
}

/**
 * A personal key capped at a role manages no keys, team or personal: it could otherwise delete
 * (or list and replace) the keys its user relies on, or mint keys at will, none of which its
 * ceiling is meant to allow. Only a session or an uncapped personal key (its user in full) does.
 */
function assertManagesKeys(actor: Actor): void {
  const ceiling = actor.kind === 'user' ? actor.personalKey?.ceiling : null;
  if (ceiling) {
    throw new ForbiddenError(`A personal key capped at ${ceiling} cannot list, create or delete API keys; use a session or an uncapped key`, 'CAPPED_KEY');
  }
}

export class ApiKeysService {
  constructor(private readonly deps: ApiKeysDeps) {}

  async create(actor: Actor, teamId: number, input: NewApiKey): Promise<ApiKeyWithToken> {
    assertManagesKeys(actor);
    const membership = await this.deps.access.require(actor, teamId, 'apikeys:manage');
    const role = input.role ?? 'teamAdmin';
    if (!mayGrant(membership.role, role)) {
      throw new ForbiddenError(`A ${membership.role} cannot create a key with the ${role} role`, 'ROLE_TOO_HIGH');
    }
    return this.mint(teamId, membership.userId, { ...input, role });
  }

  /** Mints a key without an actor (CLI `plotline token create`); the caller has already decided it may. */
  async mint(teamId: number, createdBy: number | null, input: NewApiKey & { role: Role }): Promise<ApiKeyWithToken> {
    const name = input.name.trim();
    if (name === '') throw ValidationError.field('body.name', 'must not be empty');
    if (!(await this.deps.teams.exists(teamId))) throw new NotFoundError('Team');
    let projects: number[] = [];
    if (!isTeamWide(input.role)) {
      projects = [...new Set(input.projects ?? [])];
      const known = new Set((await this.deps.teams.projectsOf([teamId])).map((p) => p.id));
      const unknown = projects.filter((id) => !known.has(id));
      if (unknown.length > 0) throw ValidationError.field('body.projects', `contains ids that are not projects of this team: ${unknown.join(', ')}`);
    }
    const token = newToken('apiKey');
    const key = await this.deps.keys.create({ teamId, createdBy, name, role: input.role, projects, tokenHash: hashToken(token) });
    return { ...key, token };
  }

  async list(actor: Actor, teamId: number): Promise<ApiKey[]> {
    assertManagesKeys(actor);
    await this.deps.access.require(actor, teamId, 'apikeys:manage');
    return this.deps.keys.list(teamId);
  }

  async delete(actor: Actor, teamId: number, keyId: number): Promise<void> {
    assertManagesKeys(actor);
    await this.deps.access.require(actor, teamId, 'apikeys:manage');
    if (!(await this.deps.keys.delete(teamId, keyId))) throw new NotFoundError('API key');
  }

  /** A personal key acts as the caller in all their teams, at most at `ceiling` when given. */
  async createPersonal(actor: Actor, input: { name: string; ceiling?: Role | null }): Promise<PersonalApiKeyWithToken> {
    if (actor.kind !== 'user') throw new ForbiddenError('Team API keys cannot create personal keys', 'ROLE_TOO_HIGH');
    assertManagesKeys(actor);
    const name = input.name.trim();
    if (name === '') throw ValidationError.field('body.name', 'must not be empty');
    const ceiling = input.ceiling ?? null;
    const token = newToken('personalKey');
    const key = await this.deps.keys.createPersonal({ userId: actor.userId, name, ceiling, tokenHash: hashToken(token) });
    return { ...key, token };
  }

  async listPersonal(actor: Actor): Promise<PersonalApiKey[]> {
    if (actor.kind !== 'user') throw new ForbiddenError('Team API keys have no personal keys');
    assertManagesKeys(actor);
    return this.deps.keys.listPersonal(actor.userId);
  }

  async deletePersonal(actor: Actor, keyId: number): Promise<void> {
    if (actor.kind !== 'user') throw new ForbiddenError('Team API keys have no personal keys');
    assertManagesKeys(actor);
    if (!(await this.deps.keys.deletePersonal(actor.userId, keyId))) throw new NotFoundError('API key');
  }
}
