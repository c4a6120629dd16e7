import { sql, type Selectable } from 'kysely';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { SharePoliciesTable } from '../../store/types.js';
import type { Static } from 'typebox';
import type { EntityType, PolicyParam as PolicyParamSchema, SharePolicy as SharePolicySchema, Visibility } from './sharing-schemas.js';

/** A locked parameter of a policy: its schema. */
export type PolicyParam = Static<typeof PolicyParamSchema>;

/** A share policy as answered: its response schema. */
export type SharePolicy = Static<typeof SharePolicySchema>;

/** What token issuing and checking need besides the public view. */
export interface SharePolicyRecord extends SharePolicy {
  team_id: number;
  /**
   * The revocation counter (the `token_version` column): tokens carry it as `ver`, revoke adds one,
   * and a token whose `ver` is not the policy's current one is refused.
   */
  revision: number;
}

/**
 * How far the answered `token_version` is ahead of the stored counter. Chartbrew numbers its token
 * formats (1: legacy, 2: current) and its web app signs links by itself only for a policy at 2 or
 * more; Plotline has one format, its counter starts at 1, and revocations count on from there. So a
 * new policy answers 2 and each revoke one more, without rewriting stored rows or the tokens out
 * there (docs/decisions/0030-share-token-version.md).
 */
export const ANSWERED_TOKEN_VERSION_OFFSET = 1;

export interface SharePolicyFields {
  params?: PolicyParam[];
  allow_params?: boolean;
  expires_at?: string | null;
  visibility?: Visibility;
}

export interface EntityRef {
  teamId: number;
  type: EntityType;
  id: number;
}

function toPolicy(row: Selectable<SharePoliciesTable>): SharePolicyRecord {
  return {
    id: row.id,
    team_id: row.team_id,
    entity_type: row.entity_type === 'Chart' ? 'Chart' : 'Project',
    entity_id: row.entity_id,
    share_string: row.share_string,
    // Visibilities outside the known set can only come from manual edits; refuse them like `disabled`.
    visibility: row.visibility === 'private' ? 'private' : 'disabled',
    params: fromJson<PolicyParam[]>(row.params, []),
    allow_params: toBool(row.allow_params),
    expires_at: toIso(row.expires_at),
    token_version: row.token_version + ANSWERED_TOKEN_VERSION_OFFSET,
    revision: row.token_version,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export class SharingRepository {
  constructor(private readonly db: Db) {}

  async create(entity: EntityRef, shareString: string): Promise<SharePolicyRecord> {
    const at = now();
    const row = await this.db
      .insertInto('share_policies')
      .values({
        team_id: entity.teamId,
        entity_type: entity.type,
        entity_id: entity.id,
        share_string: shareString,
        visibility: 'private',
        params: toJson([]),
        allow_params: false,
        expires_at: null,
        token_version: 1,
        createdAt: at,
        updatedAt: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPolicy(row);
  }

  async list(entity: EntityRef): Promise<SharePolicyRecord[]> {
    const rows = await this.db
      .selectFrom('share_policies')
      .selectAll()
      .where('team_id', '=', entity.teamId)
      .where('entity_type', '=', entity.type)
      .where('entity_id', '=', entity.id)
      .orderBy('id')
      .execute();
    return rows.map(toPolicy);
  }

  /** The policy only if it belongs to this entity of this team; any mismatch reads as absent. */
  async find(entity: EntityRef, policyId: number): Promise<SharePolicyRecord | undefined> {
    const row = await this.db
      .selectFrom('share_policies')
      .selectAll()
      .where('id', '=', policyId)
      .where('team_id', '=', entity.teamId)
      .where('entity_type', '=', entity.type)
      .where('entity_id', '=', entity.id)
      .executeTakeFirst();
    return row && toPolicy(row);
  }

  /** Public share links: `share_string` is the only key a visitor holds. */
  async findByShareString(shareString: string): Promise<SharePolicyRecord | undefined> {
    const row = await this.db.selectFrom('share_policies').selectAll().where('share_string', '=', shareString).executeTakeFirst();
    return row && toPolicy(row);
  }

  /** Share tokens name their policy by id. */
  async findById(policyId: number): Promise<SharePolicyRecord | undefined> {
    const row = await this.db.selectFrom('share_policies').selectAll().where('id', '=', policyId).executeTakeFirst();
    return row && toPolicy(row);
  }

  async update(entity: EntityRef, policyId: number, fields: SharePolicyFields): Promise<SharePolicyRecord | undefined> {
    const row = await this.db
      .updateTable('share_policies')
      .set({
        ...(fields.params !== undefined ? { params: toJson(fields.params) } : {}),
        ...(fields.allow_params !== undefined ? { allow_params: fields.allow_params } : {}),
        ...(fields.expires_at !== undefined ? { expires_at: fields.expires_at } : {}),
        ...(fields.visibility !== undefined ? { visibility: fields.visibility } : {}),
        updatedAt: now(),
      })
      .where('id', '=', policyId)
      .where('team_id', '=', entity.teamId)
      .where('entity_type', '=', entity.type)
      .where('entity_id', '=', entity.id)
      .returningAll()
      .executeTakeFirst();
    return row && toPolicy(row);
  }

  /** Bumps the counter (and so the answered token_version): every token issued under the old one stops validating. */
  async revoke(entity: EntityRef, policyId: number): Promise<SharePolicyRecord | undefined> {
    const row = await this.db
      .updateTable('share_policies')
      .set({ token_version: sql<number>`token_version + 1`, updatedAt: now() })
      .where('id', '=', policyId)
      .where('team_id', '=', entity.teamId)
      .where('entity_type', '=', entity.type)
      .where('entity_id', '=', entity.id)
      .returningAll()
      .executeTakeFirst();
    return row && toPolicy(row);
  }

  async delete(entity: EntityRef, policyId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('share_policies')
      .where('id', '=', policyId)
      .where('team_id', '=', entity.teamId)
      .where('entity_type', '=', entity.type)
      .where('entity_id', '=', entity.id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Removes the policies of deleted entities. The table has no foreign key to charts or projects
   * (entity_id is polymorphic), so deleting an entity must call this in the same transaction.
   */
  async deleteForEntities(teamId: number, type: EntityType, ids: readonly number[], db: Db = this.db): Promise<void> {
    if (ids.length === 0) return;
    await db.deleteFrom('share_policies').where('team_id', '=', teamId).where('entity_type', '=', type).where('entity_id', 'in', ids).execute();
  }
}
