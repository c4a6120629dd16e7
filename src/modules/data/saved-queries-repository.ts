import type { Db } from '../../store/index.js';
import { now, toIso } from '../../store/columns.js';
import type { SavedQueryView } from './saved-queries-schemas.js';

export type SavedQueryFields = Partial<Pick<SavedQueryView, 'summary' | 'query' | 'type'>>;

/** Saved queries of a team, each with the name of whoever saved it. Every read takes the team. */
export class SavedQueriesRepository {
  constructor(private readonly db: Db) {}

  private select() {
    return this.db
      .selectFrom('saved_queries')
      .leftJoin('users', 'users.id', 'saved_queries.user_id')
      .selectAll('saved_queries')
      .select(['users.name as user_name']);
  }

  async list(teamId: number, type: string | undefined): Promise<SavedQueryView[]> {
    let query = this.select().where('saved_queries.team_id', '=', teamId);
    if (type !== undefined) query = query.where('saved_queries.type', '=', type);
    return (await query.orderBy('saved_queries.id').execute()).map(toView);
  }

  async find(teamId: number, id: number): Promise<SavedQueryView | undefined> {
    const row = await this.select().where('saved_queries.team_id', '=', teamId).where('saved_queries.id', '=', id).executeTakeFirst();
    return row && toView(row);
  }

  async create(teamId: number, userId: number | null, fields: SavedQueryFields): Promise<number> {
    const at = now();
    const row = await this.db
      .insertInto('saved_queries')
      .values({ team_id: teamId, user_id: userId, ...fields, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(teamId: number, id: number, fields: SavedQueryFields): Promise<boolean> {
    const result = await this.db.updateTable('saved_queries').set({ ...fields, updatedAt: now() }).where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('saved_queries').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

interface Row {
  id: number;
  team_id: number;
  user_id: number | null;
  summary: string | null;
  query: string | null;
  type: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  user_name: string | null;
}

function toView(row: Row): SavedQueryView {
  return {
    id: row.id,
    team_id: row.team_id,
    user_id: row.user_id,
    summary: row.summary,
    query: row.query,
    type: row.type,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    User: row.user_id !== null && row.user_name !== null ? { id: row.user_id, name: row.user_name } : null,
  };
}
