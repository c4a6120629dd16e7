import { ForbiddenError, NotFoundError } from '../errors/index.js';
import type { TeamsRepository } from '../modules/teams/repository.js';
import type { Actor } from './actor.js';
import { can, type Action, type Membership } from './authorization.js';

/**
 * Turns an actor and a team id into a Membership, then checks the role table.
 * A team that does not exist is a 404; one the actor is not in (or an API key of another team) a 403.
 */
export class AccessService {
  constructor(private readonly teams: TeamsRepository) {}

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
    return { teamId, userId: actor.userId, role: role.role, projects: role.projects };
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
