import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/index.js';
import { assertCan, type AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { can, isTeamWide, mayGrant, ownsProject, roleRank, type Membership, type Role } from '../../platform/authorization.js';
import type { Db } from '../../store/index.js';
import { normalizeEmail } from './users-service.js';
import type { ApiKeysRepository } from './api-keys-repository.js';
import type { Member, Team, TeamFlags, TeamRole, TeamsRepository } from './teams-repository.js';
import type { UsersRepository } from './users-repository.js';
import type { TeamView } from './teams-schemas.js';

export interface TeamsDeps {
  db: Db;
  teams: TeamsRepository;
  users: UsersRepository;
  access: AccessService;
  apiKeys: ApiKeysRepository;
}

export class TeamsService {
  constructor(private readonly deps: TeamsDeps) {}

  async create(actor: Actor, input: { name: string } & TeamFlags): Promise<TeamView> {
    if (actor.kind !== 'user') throw new ForbiddenError('Team API keys act only inside their own team; use a personal API key or sign in to create a team');
    const ceiling = actor.personalKey?.ceiling;
    if (ceiling && !isTeamWide(ceiling)) throw new ForbiddenError(`A personal API key capped at ${ceiling} cannot create teams`, 'ROLE_TOO_HIGH');
    const name = input.name.trim();
    if (name === '') throw ValidationError.field('body.name', 'must not be empty');
    const team = await this.deps.db.transaction().execute((trx) => this.deps.teams.create({ ...input, name }, actor.userId, trx));
    return this.get(actor, team.id);
  }

  async get(actor: Actor, teamId: number): Promise<TeamView> {
    const membership = await this.deps.access.require(actor, teamId, 'team:read');
    const team = await this.deps.teams.findById(teamId);
    if (!team) throw new NotFoundError('Team');
    const roles = await this.deps.teams.rolesForTeams([teamId]);
    return this.view(team, membership, roles);
  }

  /** `GET /team`: every team of the caller, each with its projects. */
  async listMine(actor: Actor): Promise<TeamView[]> {
    if (actor.kind === 'apiKey') return [await this.withProjects(actor, await this.get(actor, actor.teamId))];
    const teams = await this.deps.teams.listForUser(actor.userId);
    return this.listViews(actor, teams);
  }

  /** `GET /team/user/{user_id}`: a user's teams; for another user, only teams the caller administers. */
  async listForUser(actor: Actor, userId: number): Promise<TeamView[]> {
    if (actor.kind === 'apiKey') {
      const membership = await this.deps.access.membership(actor, actor.teamId);
      const isMember = (await this.deps.teams.findRole(actor.teamId, userId)) !== undefined;
      const visible = isMember && (userId === actor.userId || isTeamWide(membership.role));
      return visible ? this.listMine(actor) : [];
    }
    const teams = userId === actor.userId ? await this.deps.teams.listForUser(userId) : await this.deps.teams.sharedAdminTeams(userId, actor.userId);
    return this.listViews(actor, teams);
  }

  async update(actor: Actor, teamId: number, patch: { name?: string } & TeamFlags): Promise<TeamView> {
    await this.deps.access.require(actor, teamId, 'team:update');
    if (patch.name !== undefined && patch.name.trim() === '') throw ValidationError.field('body.name', 'must not be empty');
    const changes = {
      ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
      ...(patch.showBranding !== undefined ? { showBranding: patch.showBranding } : {}),
      ...(patch.allowReportRefresh !== undefined ? { allowReportRefresh: patch.allowReportRefresh } : {}),
      ...(patch.allowReportExport !== undefined ? { allowReportExport: patch.allowReportExport } : {}),
      ...(patch.allowExternalRecipients !== undefined ? { allowExternalRecipients: patch.allowExternalRecipients } : {}),
    };
    const team = await this.deps.teams.update(teamId, changes);
    if (!team) throw new NotFoundError('Team');
    return this.get(actor, teamId);
  }

  async delete(actor: Actor, teamId: number): Promise<void> {
    await this.deps.access.require(actor, teamId, 'team:delete');
    await this.deps.teams.delete(teamId);
  }

  /**
   * Team owners and admins see every member. Project roles see their own row only: Chartbrew's app
   * reads the caller's `TeamRoles` from this list on every dashboard page, and a project role has
   * no business with the other members' emails (docs/decisions/0032-members-for-project-roles.md).
   */
  async members(actor: Actor, teamId: number): Promise<Member[]> {
    const membership = await this.deps.access.require(actor, teamId, 'team:read');
    const members = await this.deps.teams.members(teamId);
    if (can(membership, 'members:manage')) return members;
    return members.filter((member) => membership.userId !== null && member.user_id === membership.userId);
  }

  async addMember(actor: Actor, teamId: number, input: { email: string; role: Role; projects?: number[] }): Promise<Member> {
    const membership = await this.deps.access.require(actor, teamId, 'members:manage');
    const projects = await this.checkGrant(membership, input.role, input.projects ?? []);
    const user = await this.deps.users.findByEmail(normalizeEmail(input.email));
    if (!user) throw new NotFoundError('User with this email');
    if (await this.deps.teams.findRole(teamId, user.id)) throw new ConflictError('This user is already a member of the team', 'ALREADY_MEMBER');
    await this.deps.teams.addRole(teamId, user.id, input.role, projects);
    return this.member(teamId, user.id);
  }

  async updateMember(actor: Actor, teamId: number, userId: number, patch: { role?: Role; projects?: number[]; canExport?: boolean }): Promise<Member> {
    const membership = await this.deps.access.require(actor, teamId, 'members:manage');
    const target = await this.deps.teams.findRole(teamId, userId);
    if (!target) throw new NotFoundError('Member');
    this.assertOutranksOrEquals(membership, target.role);
    const role = patch.role ?? target.role;
    if (patch.role !== undefined) this.assertMayGrant(membership, patch.role);
    const projects = patch.projects !== undefined ? await this.checkProjects(teamId, role, patch.projects) : undefined;
    await this.deps.db.transaction().execute(async (trx) => {
      if (target.role === 'teamOwner' && role !== 'teamOwner' && (await this.deps.teams.countOwners(teamId, trx)) <= 1) {
        throw new ConflictError('The last owner of a team cannot be demoted; make someone else owner first', 'LAST_OWNER');
      }
      await this.deps.teams.updateRole(teamId, userId, { role, ...(projects !== undefined ? { projects } : {}), ...(patch.canExport !== undefined ? { canExport: patch.canExport } : {}) }, trx);
    });
    return this.member(teamId, userId);
  }

  async removeMember(actor: Actor, teamId: number, userId: number): Promise<void> {
    const membership = await this.deps.access.membership(actor, teamId);
    const leaving = membership.userId === userId && actor.kind === 'user';
    if (!leaving) assertCan(membership, 'members:manage');
    const target = await this.deps.teams.findRole(teamId, userId);
    if (!target) throw new NotFoundError('Member');
    if (!leaving) this.assertOutranksOrEquals(membership, target.role);
    await this.deps.db.transaction().execute(async (trx) => {
      if (target.role === 'teamOwner' && (await this.deps.teams.countOwners(teamId, trx)) <= 1) {
        throw new ConflictError('The last owner of a team cannot leave it; delete the team or make someone else owner', 'LAST_OWNER');
      }
      await this.deps.teams.removeRole(teamId, userId, trx);
      // Keys act with at most their creator's rights; someone who left has none here.
      await this.deps.apiKeys.deleteCreatedBy(teamId, userId, trx);
    });
  }

  private async member(teamId: number, userId: number): Promise<Member> {
    const member = (await this.deps.teams.members(teamId)).find((m) => m.user_id === userId);
    if (!member) throw new NotFoundError('Member');
    return member;
  }

  /**
   * The rules of giving someone a role in the team, for added members and invitations alike: the
   * granter may grant it (never above their own role; only owners make owners), and a project
   * role's projects are projects of this team. Answers the project ids to store.
   */
  async checkGrant(membership: Membership, role: Role, projects: number[]): Promise<number[]> {
    this.assertMayGrant(membership, role);
    return this.checkProjects(membership.teamId, role, projects);
  }

  /** A member (or an invitation) holding `targetRole` may be changed only by someone of that rank or above. */
  assertOutranksOrEquals(membership: Membership, targetRole: Role): void {
    if (roleRank(targetRole) > roleRank(membership.role)) {
      throw new ForbiddenError(`A ${membership.role} cannot change a ${targetRole}`, 'ROLE_TOO_HIGH');
    }
  }

  private assertMayGrant(membership: Membership, role: Role): void {
    if (!mayGrant(membership.role, role)) {
      throw new ForbiddenError(`A ${membership.role} cannot grant the ${role} role`, 'ROLE_TOO_HIGH');
    }
  }

  /** Project ids given to a project role must be projects of this team. */
  private async checkProjects(teamId: number, role: Role, projects: number[]): Promise<number[]> {
    if (isTeamWide(role)) return [];
    const unique = [...new Set(projects)];
    const known = new Set((await this.deps.teams.projectsOf([teamId])).map((p) => p.id));
    const unknown = unique.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw ValidationError.field('body.projects', `contains ids that are not projects of this team: ${unknown.join(', ')}`);
    }
    return unique;
  }

  private async listViews(actor: Actor, teams: Team[]): Promise<TeamView[]> {
    const ids = teams.map((t) => t.id);
    const [roles, projects] = await Promise.all([this.deps.teams.rolesForTeams(ids), this.deps.teams.projectsOf(ids)]);
    const views: TeamView[] = [];
    for (const team of teams) {
      const teamRoles = roles.filter((r) => r.team_id === team.id);
      const mine = teamRoles.find((r) => r.user_id === actor.userId);
      if (!mine) continue;
      const membership = actor.kind === 'user' ? await this.deps.access.asMember(actor, team.id, mine) : await this.deps.access.membership(actor, team.id);
      const view = this.view(team, membership, teamRoles);
      view.Projects = projects
        .filter((p) => p.team_id === team.id && ownsProject(membership, p.id))
        .map((p) => ({ id: p.id, name: p.name }));
      views.push(view);
    }
    return views;
  }

  private async withProjects(actor: Actor, view: TeamView): Promise<TeamView> {
    const membership = await this.deps.access.membership(actor, view.id);
    const projects = await this.deps.teams.projectsOf([view.id]);
    return { ...view, Projects: projects.filter((p) => ownsProject(membership, p.id)).map((p) => ({ id: p.id, name: p.name })) };
  }

  private view(team: Team, membership: Membership, roles: TeamRole[]): TeamView {
    if (can(membership, 'team:readFull')) return { ...team, TeamRoles: roles };
    return { id: team.id, name: team.name, TeamRoles: roles.filter((r) => r.user_id === membership.userId) };
  }
}
