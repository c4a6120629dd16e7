import type { Db } from '../../store/index.js';
import { fromJson, now, toIso, toJson } from '../../store/columns.js';
import type { ApiKeyRow, PersonalApiKeyRow } from '../../store/types.js';
import { isRole, type Role } from '../../platform/authorization.js';

export interface ApiKey {
  id: number;
  team_id: number;
  name: string;
  role: Role;
  projects: number[];
  createdBy: number | null;
  createdAt: string;
  lastUsedAt: string | null;
}

function toApiKey(row: Omit<ApiKeyRow, 'token_hash'>): ApiKey {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    role: isRole(row.role) ? row.role : 'projectViewer',
    projects: fromJson<unknown[]>(row.projects, []).map(Number).filter(Number.isInteger),
    createdBy: row.created_by,
    createdAt: toIso(row.createdAt),
    lastUsedAt: toIso(row.lastUsedAt),
  };
}

/** A key that acts as its user in all their teams, capped by `ceiling` when set. */
export interface PersonalApiKey {
  id: number;
  name: string;
  ceiling: Role | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A team key with its creator's current grant in the key's team (absent: no longer a member). */
export interface ApiKeyWithCreatorGrant extends ApiKey {
  creatorGrant: { role: Role; projects: number[] } | undefined;
}

function toPersonalKey(row: Omit<PersonalApiKeyRow, 'token_hash'>): PersonalApiKey & { userId: number } {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    // An unknown ceiling can only come from manual edits; treat it as the weakest role.
    ceiling: row.role_ceiling === null ? null : isRole(row.role_ceiling) ? row.role_ceiling : 'projectViewer',
    createdAt: toIso(row.createdAt),
    lastUsedAt: toIso(row.lastUsedAt),
  };
}

const PERSONAL_COLUMNS = ['id', 'user_id', 'name', 'role_ceiling', 'createdAt', 'lastUsedAt'] as const;

const COLUMNS = ['id', 'team_id', 'created_by', 'name', 'role', 'projects', 'createdAt', 'lastUsedAt'] as const;

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  async create(input: { teamId: number; createdBy: number | null; name: string; role: Role; projects: readonly number[]; tokenHash: string }): Promise<ApiKey> {
    const row = await this.db
      .insertInto('api_keys')
      .values({
        team_id: input.teamId,
        created_by: input.createdBy,
        name: input.name,
        role: input.role,
        projects: toJson(input.projects),
        token_hash: input.tokenHash,
        createdAt: now(),
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toApiKey(row);
  }

  async list(teamId: number): Promise<ApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').select(COLUMNS).where('team_id', '=', teamId).orderBy('id').execute();
    return rows.map(toApiKey);
  }

  /** The key and, in the same query, its creator's current role in the key's team. */
  async findByHash(tokenHash: string): Promise<ApiKeyWithCreatorGrant | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .leftJoin('team_roles', (join) => join.onRef('team_roles.team_id', '=', 'api_keys.team_id').onRef('team_roles.user_id', '=', 'api_keys.created_by'))
      .select(COLUMNS.map((c) => `api_keys.${c}` as const))
      .select(['team_roles.role as creator_role', 'team_roles.projects as creator_projects'])
      .where('api_keys.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const creatorGrant =
      row.creator_role === null
        ? undefined
        : {
            role: isRole(row.creator_role) ? row.creator_role : ('projectViewer' as const),
            projects: fromJson<unknown[]>(row.creator_projects, []).map(Number).filter(Number.isInteger),
          };
    return { ...toApiKey(row), creatorGrant };
  }

  /** Revokes every key a user created in a team (they left it or were removed). */
  async deleteCreatedBy(teamId: number, userId: number, db: Db = this.db): Promise<number> {
    const result = await db.deleteFrom('api_keys').where('team_id', '=', teamId).where('created_by', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async createPersonal(input: { userId: number; name: string; ceiling: Role | null; tokenHash: string }): Promise<PersonalApiKey> {
    const row = await this.db
      .insertInto('personal_api_keys')
      .values({ user_id: input.userId, name: input.name, role_ceiling: input.ceiling, token_hash: input.tokenHash, createdAt: now() })
      .returning(PERSONAL_COLUMNS)
      .executeTakeFirstOrThrow();
    return toPersonalKey(row);
  }

  async listPersonal(userId: number): Promise<PersonalApiKey[]> {
    const rows = await this.db.selectFrom('personal_api_keys').select(PERSONAL_COLUMNS).where('user_id', '=', userId).orderBy('id').execute();
    return rows.map(toPersonalKey);
  }

  async findPersonalByHash(tokenHash: string): Promise<(PersonalApiKey & { userId: number }) | undefined> {
    const row = await this.db.selectFrom('personal_api_keys').select(PERSONAL_COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && toPersonalKey(row);
  }

  async touchPersonal(id: number): Promise<void> {
    await this.db.updateTable('personal_api_keys').set({ lastUsedAt: now() }).where('id', '=', id).execute();
  }

  async deletePersonal(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('personal_api_keys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async touch(id: number): Promise<void> {
    await this.db.updateTable('api_keys').set({ lastUsedAt: now() }).where('id', '=', id).execute();
  }

  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('api_keys').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
