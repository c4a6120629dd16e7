import { ForbiddenError, NotFoundError } from '../errors/index.js';
import type { Actor } from './actor.js';
import { can, isTeamWide, roleRank, type Action, type Grant, type Membership, type Role } from './authorization.js';

/**
 * What access checks read of teams. Declared here so that platform does not depend on a module:
 * the teams module's repository implements it and the container passes it in.
 */
export interface TeamDirectory {
  /** The user's role row in the team, if any. */
  findRole(teamId: number, userId: number): Promise<{ role: Role; projects: readonly number[] } | undefined>;
  exists(teamId: number): Promise<boolean>;
  /** The dashboards of the teams. */
  projectsOf(teamIds: readonly number[]): Promise<{ id: number }[]>;
  /** The team's settings that shared pages honour. */
  findById(teamId: number): Promise<TeamSettings | undefined>;
  /** The team's members, for deliveries that go only to them (alert e-mail). */
  members(teamId: number): Promise<{ user_id: number; email: string }[]>;
}

/** What a team lets its shared reports show and do. */
export interface TeamSettings {
  showBranding: boolean;
  allowReportExport?: boolean;
  /** Scheduled deliveries may go to addresses outside the team. */
  allowExternalRecipients?: boolean;
}

/**
 * Turns an actor and a team id into a Membership, then checks the role table.
 * A team that does not exist is a 404; one the actor is not in (or an API key of another team) a 403.
 */
export class AccessService {
  constructor(private readonly teams: TeamDirectory) {}

  /** The team's settings, for share pages that have already decided access (no actor). */
  teamSettings(teamId: number): Promise<TeamSettings | undefined> {
    return this.teams.findById(teamId);
  }

  /** The e-mail addresses of the team's members (alert recipients must be among them). */
  async memberEmails(teamId: number): Promise<Set<string>> {
    return new Set((await this.teams.members(teamId)).map((m) => m.email.toLowerCase()));
  }

  /** The e-mail address of a member of the team (lower case), or undefined: a key without a user, or someone not in it. */
  async memberEmail(teamId: number, userId: number | null): Promise<string | undefined> {
    if (userId === null) return undefined;
    return (await this.teams.members(teamId)).find((m) => m.user_id === userId)?.email.toLowerCase();
  }

  async membership(actor: Actor, teamId: number): Promise<Membership> {
    if (actor.kind === 'apiKey') {
      if (actor.teamId !== teamId) throw new ForbiddenError('This API key belongs to another team');
      return { teamId, userId: actor.userId, role: actor.role, projects: actor.projects };
    }
    const role = await this.teams.findRole(teamId, actor.userId);
    if (!role) {
      if (!(await this.teams.exists(teamId))) throw new NotFoundError('Team');
      throw new ForbiddenError('You are not a member of this team');
    }
    return this.asMember(actor, teamId, role);
  }

  /**
   * The membership from a grant read together with the entity it is about (one store read for
   * both); `grant` is the user's team_roles row in `teamId`, undefined when they have none.
   */
  async fromGrant(actor: Actor, teamId: number, grant: Grant | undefined): Promise<Membership> {
    if (actor.kind === 'apiKey') return this.membership(actor, teamId);
    if (!grant) throw new ForbiddenError('You are not a member of this team');
    return this.asMember(actor, teamId, grant);
  }

  /** A user's membership from their role row, capped by the ceiling of the personal key they call with. */
  async asMember(actor: Actor & { kind: 'user' }, teamId: number, grant: { role: Role; projects: readonly number[] }): Promise<Membership> {
    const ceiling = actor.personalKey?.ceiling;
    if (!ceiling) return { teamId, userId: actor.userId, role: grant.role, projects: grant.projects };
    // A ceiling lowers the role, never the projects: a team-wide member capped to a project role
    // keeps every project they could reach.
    const role = roleRank(ceiling) < roleRank(grant.role) ? ceiling : grant.role;
    if (isTeamWide(role)) return { teamId, userId: actor.userId, role, projects: [] };
    const projects = isTeamWide(grant.role) ? (await this.teams.projectsOf([teamId])).map((p) => p.id) : grant.projects;
    return { teamId, userId: actor.userId, role, projects };
  }

  async require(actor: Actor, teamId: number, action: Action): Promise<Membership> {
    const membership = await this.membership(actor, teamId);
    assertCan(membership, action);
    return membership;
  }
}

export function assertCan(membership: Membership, action: Action): void {
  if (!can(membership, action)) {
    throw new ForbiddenError(`The ${membership.role} role may not perform ${action}`);
  }
}
