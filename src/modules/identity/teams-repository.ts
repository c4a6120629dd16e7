import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { TeamRoleRow, TeamRow } from '../../store/types.js';
import type { Static } from 'typebox';
import type { Member as MemberSchema, TeamRole as TeamRoleSchema, UpdateTeam } from './teams-schemas.js';
import type { TeamDirectory } from '../../platform/access.js';
import { grantFromColumns, type Role } from '../../platform/authorization.js';

/** A member's role in a team, as answered: its response schema. */
export type TeamRole = Static<typeof TeamRoleSchema>;

/** A member with their name and e-mail, as answered: its response schema. */
export type Member = Static<typeof MemberSchema>;

export interface Team {
  id: number;
  name: string;
  showBranding: boolean;
  allowReportRefresh: boolean;
  allowReportExport: boolean;
  /** Scheduled deliveries may go to addresses outside the team. */
  allowExternalRecipients: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The flags a team body may set: its update schema without the name. */
export type TeamFlags = Omit<Static<typeof UpdateTeam>, 'name'>;

function toTeam(row: TeamRow): Team {
  return {
    id: row.id,
    name: row.name,
    showBranding: toBool(row.showBranding),
    allowReportRefresh: toBool(row.allowReportRefresh),
    allowReportExport: toBool(row.allowReportExport),
    allowExternalRecipients: toBool(row.allowExternalRecipients),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function toRole(row: Pick<TeamRoleRow, 'id' | 'team_id' | 'user_id' | 'role' | 'projects' | 'canExport'>): TeamRole {
  const { role, projects } = grantFromColumns(row.role, fromJson<unknown[]>(row.projects, []));
  return { id: row.id, team_id: row.team_id, user_id: row.user_id, role, projects: [...projects], canExport: toBool(row.canExport) };
}

export class TeamsRepository implements TeamDirectory {
  constructor(private readonly db: Db) {}

  async create(input: { name: string } & TeamFlags, ownerId: number | null, db: Db = this.db): Promise<Team> {
    const at = now();
    const row = await db
      .insertInto('teams')
      .values({
        name: input.name,
        showBranding: input.showBranding ?? true,
        allowReportRefresh: input.allowReportRefresh ?? false,
        allowReportExport: input.allowReportExport ?? false,
        allowExternalRecipients: input.allowExternalRecipients ?? false,
        createdAt: at,
        updatedAt: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (ownerId !== null) await this.addRole(row.id, ownerId, 'teamOwner', [], db);
    return toTeam(row);
  }

  async findById(id: number): Promise<Team | undefined> {
    const row = await this.db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toTeam(row);
  }

  async exists(id: number): Promise<boolean> {
    const row = await this.db.selectFrom('teams').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  async listForUser(userId: number): Promise<Team[]> {
    const rows = await this.db
      .selectFrom('teams')
      .innerJoin('team_roles', 'team_roles.team_id', 'teams.id')
      .selectAll('teams')
      .where('team_roles.user_id', '=', userId)
      .orderBy('teams.id')
      .execute();
    return rows.map(toTeam);
  }

  async update(id: number, patch: { name?: string } & TeamFlags): Promise<Team | undefined> {
    const row = await this.db
      .updateTable('teams')
      .set({ ...patch, updatedAt: now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toTeam(row);
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('teams').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findRole(teamId: number, userId: number): Promise<TeamRole | undefined> {
    const row = await this.db
      .selectFrom('team_roles')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && toRole(row);
  }

  async rolesForTeams(teamIds: readonly number[]): Promise<TeamRole[]> {
    if (teamIds.length === 0) return [];
    const rows = await this.db.selectFrom('team_roles').selectAll().where('team_id', 'in', teamIds).orderBy('id').execute();
    return rows.map(toRole);
  }

  async members(teamId: number): Promise<Member[]> {
    const rows = await this.db
      .selectFrom('team_roles')
      .innerJoin('users', 'users.id', 'team_roles.user_id')
      .select([
        'team_roles.id',
        'team_roles.team_id',
        'team_roles.user_id',
        'team_roles.role',
        'team_roles.projects',
        'team_roles.canExport',
        'users.name',
        'users.email',
      ])
      .where('team_roles.team_id', '=', teamId)
      .orderBy('team_roles.id')
      .execute();
    return rows.map((row) => {
      const role = toRole(row);
      return { ...role, name: row.name, email: row.email, TeamRoles: [role] };
    });
  }

  async addRole(teamId: number, userId: number, role: Role, projects: readonly number[], db: Db = this.db, canExport = false): Promise<TeamRole> {
    const at = now();
    const row = await db
      .insertInto('team_roles')
      .values({ team_id: teamId, user_id: userId, role, projects: toJson(projects), canExport, createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRole(row);
  }

  async updateRole(teamId: number, userId: number, patch: { role?: Role; projects?: readonly number[]; canExport?: boolean }, db: Db = this.db): Promise<TeamRole | undefined> {
    const row = await db
      .updateTable('team_roles')
      .set({
        ...(patch.role !== undefined ? { role: patch.role } : {}),
        ...(patch.projects !== undefined ? { projects: toJson(patch.projects) } : {}),
        ...(patch.canExport !== undefined ? { canExport: patch.canExport } : {}),
        updatedAt: now(),
      })
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    return row && toRole(row);
  }

  async removeRole(teamId: number, userId: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('team_roles').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async countOwners(teamId: number, db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('team_roles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .where('role', '=', 'teamOwner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async projectsOf(teamIds: readonly number[]): Promise<{ id: number; name: string; team_id: number }[]> {
    if (teamIds.length === 0) return [];
    return this.db.selectFrom('projects').select(['id', 'name', 'team_id']).where('team_id', 'in', teamIds).orderBy('id').execute();
  }

  /** Teams where `userId` is a member and `viewerId` is teamOwner or teamAdmin. */
  async sharedAdminTeams(userId: number, viewerId: number): Promise<Team[]> {
    const rows = await this.db
      .selectFrom('teams')
      .innerJoin('team_roles as member', 'member.team_id', 'teams.id')
      .innerJoin('team_roles as viewer', 'viewer.team_id', 'teams.id')
      .selectAll('teams')
      .where('member.user_id', '=', userId)
      .where('viewer.user_id', '=', viewerId)
      .where('viewer.role', 'in', ['teamOwner', 'teamAdmin'])
      .orderBy('teams.id')
      .execute();
    return rows.map(toTeam);
  }
}
