import type { Db } from '../../store/index.js';
import { fromJson, now, toIso, toJson } from '../../store/columns.js';
import type { ApiKeyRow } from '../../store/types.js';
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

  async findByHash(tokenHash: string): Promise<ApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').select(COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && toApiKey(row);
  }

  async touch(id: number): Promise<void> {
    await this.db.updateTable('api_keys').set({ lastUsedAt: now() }).where('id', '=', id).execute();
  }

  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('api_keys').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
