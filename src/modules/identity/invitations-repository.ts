import type { Db } from '../../store/index.js';
import { fromJson, toBool, toIso, toJson } from '../../store/columns.js';
import type { TeamInvitationRow } from '../../store/types.js';
import { grantFromColumns, type Role } from '../../platform/authorization.js';

/** An invitation as stored (never its token, only the token's hash is kept). */
export interface Invitation {
  id: number;
  team_id: number;
  created_by: number | null;
  email: string | null;
  role: Role;
  projects: number[];
  canExport: boolean;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  used_by: number | null;
  revokedAt: string | null;
}

export interface NewInvitation {
  teamId: number;
  createdBy: number | null;
  email: string | null;
  role: Role;
  projects: readonly number[];
  canExport: boolean;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
}

function toInvitation(row: TeamInvitationRow): Invitation {
  const { role, projects } = grantFromColumns(row.role, fromJson<unknown[]>(row.projects, []));
  return {
    id: row.id,
    team_id: row.team_id,
    created_by: row.created_by,
    email: row.email,
    role,
    projects: [...projects],
    canExport: toBool(row.canExport),
    createdAt: toIso(row.createdAt),
    expiresAt: toIso(row.expiresAt),
    usedAt: toIso(row.usedAt),
    used_by: row.used_by,
    revokedAt: toIso(row.revokedAt),
  };
}

export class InvitationsRepository {
  constructor(private readonly db: Db) {}

  async create(input: NewInvitation): Promise<Invitation> {
    const row = await this.db
      .insertInto('team_invitations')
      .values({
        team_id: input.teamId,
        created_by: input.createdBy,
        email: input.email,
        role: input.role,
        projects: toJson(input.projects),
        canExport: input.canExport,
        token_hash: input.tokenHash,
        createdAt: input.createdAt.toISOString(),
        expiresAt: input.expiresAt.toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toInvitation(row);
  }

  /** The team's invitations, newest first. */
  async listForTeam(teamId: number): Promise<Invitation[]> {
    const rows = await this.db.selectFrom('team_invitations').selectAll().where('team_id', '=', teamId).orderBy('id', 'desc').execute();
    return rows.map(toInvitation);
  }

  async findInTeam(teamId: number, id: number, db: Db = this.db): Promise<Invitation | undefined> {
    const row = await db.selectFrom('team_invitations').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row && toInvitation(row);
  }

  async findByHash(tokenHash: string): Promise<Invitation | undefined> {
    const row = await this.db.selectFrom('team_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && toInvitation(row);
  }

  /** Revokes a pending invitation; one already used, revoked or expired stays as it is. */
  async revoke(id: number, at: Date): Promise<void> {
    await this.db
      .updateTable('team_invitations')
      .set({ revokedAt: at.toISOString() })
      .where('id', '=', id)
      .where('usedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .execute();
  }

  /**
   * Marks the invitation used by `userId`, only while it is still pending at `at`: of two uses
   * racing each other, exactly one gets true (the statement decides, not an earlier read).
   */
  async consume(id: number, userId: number, at: Date, db: Db = this.db): Promise<boolean> {
    const result = await db
      .updateTable('team_invitations')
      .set({ usedAt: at.toISOString(), used_by: userId })
      .where('id', '=', id)
      .where('usedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', at.toISOString())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
