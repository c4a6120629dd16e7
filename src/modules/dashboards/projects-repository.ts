import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { ProjectsTable } from '../../store/types.js';
import { grantFromColumns, type Grant } from '../../platform/authorization.js';
import type { Static } from 'typebox';
import type { ProjectHead, StoredSchedule } from './projects-schemas.js';

export type UpdateSchedule = StoredSchedule;

/**
 * A dashboard as stored and answered: its own fields without what the service adds
 * (`nextUpdateAt`). The password hash is never part of it.
 */
export type Project = Omit<Static<typeof ProjectHead>, 'nextUpdateAt' | 'snapshotSchedule'>;

/** Writable columns, already validated and normalised by the service; the password only as its hash. */
export type ProjectFields = Partial<Omit<Project, 'id' | 'team_id' | 'brewName' | 'lastUpdatedAt' | 'createdAt' | 'updatedAt'> & { passwordHash: string | null }>;

type ProjectRow = Selectable<ProjectsTable>;

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    brewName: row.brewName,
    dashboardTitle: row.dashboardTitle,
    description: row.description,
    backgroundColor: row.backgroundColor,
    titleColor: row.titleColor,
    headerCode: row.headerCode,
    footerCode: row.footerCode,
    logo: row.logo,
    logoLink: row.logoLink,
    public: toBool(row.public),
    passwordProtected: toBool(row.passwordProtected),
    timezone: row.timezone,
    updateSchedule: fromJson<UpdateSchedule | null>(row.updateSchedule, null),
    lastUpdatedAt: toIso(row.lastUpdatedAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function columns(fields: ProjectFields): Updateable<ProjectsTable> {
  const { passwordHash, updateSchedule, ...plain } = fields;
  return {
    ...plain,
    ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
    ...(updateSchedule !== undefined ? { updateSchedule: toJson(updateSchedule) } : {}),
  };
}

/** Both drivers' unique-constraint errors (pg 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class ProjectsRepository {
  constructor(private readonly db: Db) {}

  /** The team a project belongs to: the first step of every by-id access check. */
  async teamOf(id: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('projects').select('team_id').where('id', '=', id).executeTakeFirst();
    return row?.team_id;
  }

  /**
   * A dashboard with the team_roles row of `userId` in its team (none for API keys), in one read:
   * what deciding access to it needs; and its view version (`dashboard_view_versions`).
   */
  async findWithGrant(id: number, userId: number | null): Promise<{ project: Project; grant: Grant | undefined; viewVersion: number } | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .leftJoin('team_roles', (join) => join.onRef('team_roles.team_id', '=', 'projects.team_id').on('team_roles.user_id', '=', userId ?? -1))
      .leftJoin('dashboard_view_versions', 'dashboard_view_versions.project_id', 'projects.id')
      .selectAll('projects')
      .select(['team_roles.role as grant_role', 'team_roles.projects as grant_projects', 'dashboard_view_versions.version as view_version'])
      .where('projects.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { grant_role, grant_projects, view_version, ...project } = row;
    return {
      project: toProject(project),
      grant: grant_role === null ? undefined : grantFromColumns(grant_role, fromJson<unknown[]>(grant_projects, [])),
      viewVersion: view_version ?? 0,
    };
  }

  async findById(teamId: number, id: number): Promise<Project | undefined> {
    const row = await this.db.selectFrom('projects').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row && toProject(row);
  }

  /** A dashboard by id alone, for share links (which decide access without a team). */
  async findAnyTeam(id: number): Promise<Project | undefined> {
    const row = await this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toProject(row);
  }

  /** `scope` undefined = every project of the team. */
  async listByTeam(teamId: number, scope?: readonly number[]): Promise<Project[]> {
    if (scope !== undefined && scope.length === 0) return [];
    let query = this.db.selectFrom('projects').selectAll().where('team_id', '=', teamId);
    if (scope !== undefined) query = query.where('id', 'in', scope);
    const rows = await query.orderBy('id').execute();
    return rows.map(toProject);
  }

  async brewNameTaken(brewName: string): Promise<boolean> {
    const row = await this.db.selectFrom('projects').select('id').where('brewName', '=', brewName).executeTakeFirst();
    return row !== undefined;
  }

  /** Inserts a project; `undefined` when the brewName was taken meanwhile (the only unique column). */
  async create(teamId: number, brewName: string, fields: ProjectFields & { name: string }): Promise<Project | undefined> {
    const at = now();
    const values: Insertable<ProjectsTable> = {
      ...(columns(fields) as Insertable<ProjectsTable>),
      team_id: teamId,
      name: fields.name,
      brewName,
      createdAt: at,
      updatedAt: at,
    };
    try {
      const row = await this.db.insertInto('projects').values(values).returningAll().executeTakeFirstOrThrow();
      return toProject(row);
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async update(teamId: number, id: number, fields: ProjectFields): Promise<Project | undefined> {
    const row = await this.db
      .updateTable('projects')
      .set({ ...columns(fields), updatedAt: now() })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toProject(row);
  }

  async delete(teamId: number, id: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('projects').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async passwordHash(teamId: number, id: number): Promise<string | null> {
    const row = await this.db.selectFrom('projects').select('password_hash').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row?.password_hash ?? null;
  }

  /** Public report lookup; the hash is returned separately so it never rides along in a response. */
  async findByBrewName(brewName: string): Promise<{ project: Project; passwordHash: string | null } | undefined> {
    const row = await this.db.selectFrom('projects').selectAll().where('brewName', '=', brewName).executeTakeFirst();
    return row && { project: toProject(row), passwordHash: row.password_hash };
  }

  /** Set when a refresh of the dashboard starts (in the transaction that takes its claim), never by a request body. */
  async markRefreshed(id: number, at: string, db: Db = this.db): Promise<void> {
    await db.updateTable('projects').set({ lastUpdatedAt: at }).where('id', '=', id).execute();
  }
}
