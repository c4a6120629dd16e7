import { hashToken, newToken } from '../../crypto/tokens.js';
import { BadRequestError, ConflictError, ForbiddenError, GoneError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import type { Role } from '../../platform/authorization.js';
import type { Mailer } from '../../platform/mailer.js';
import type { Db } from '../../store/index.js';
import type { Invitation, InvitationsRepository } from './invitations-repository.js';
import { INVITE_DEFAULT_DAYS, type InvitationView } from './invitations-schemas.js';
import type { TeamsRepository } from './teams-repository.js';
import type { TeamView } from './teams-schemas.js';
import type { TeamsService } from './teams-service.js';
import type { UsersRepository } from './users-repository.js';
import { isEmail, normalizeEmail, type Signup, type UserWithToken, type UsersService } from './users-service.js';

export interface NewInvitationInput {
  role?: Role;
  projects?: number[];
  canExport?: boolean;
  email?: string;
  expiresInDays?: number;
}

export interface CreatedInvitation {
  url: string;
  emailed: boolean;
  /** Why the link was not e-mailed although the invitation names an address (for the log). */
  mailProblem?: string;
  invitation: InvitationView;
}

export interface InvitationsDeps {
  db: Db;
  invitations: InvitationsRepository;
  teams: TeamsRepository;
  users: UsersRepository;
  teamsService: TeamsService;
  usersService: UsersService;
  access: AccessService;
  mailer: Mailer;
  /** Links point at `{appUrl}/invite?token=…`: where the web app that signs people up is served. */
  appUrl: string;
  clock?: () => Date;
}

const DAY_MS = 24 * 3600 * 1000;

function status(invitation: Invitation, at: Date): InvitationView['status'] {
  if (invitation.usedAt !== null) return 'used';
  if (invitation.revokedAt !== null) return 'revoked';
  return new Date(invitation.expiresAt).getTime() <= at.getTime() ? 'expired' : 'pending';
}

const invalidLink = () => new BadRequestError('This invitation link is not valid; ask the team for a new one', 'INVITE_INVALID');

/**
 * Team invitations: a link that lets one person join a team with a role chosen by someone who
 * manages its members. Unlike Chartbrew's signed links, each is stored (its token as a hash only),
 * expires, works once and can be revoked.
 */
export class InvitationsService {
  private readonly clock: () => Date;

  constructor(private readonly deps: InvitationsDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** Whether an invitation naming an address is e-mailed: an SMTP server is configured (PLOTLINE_SMTP_URL). */
  async emailSettings(actor: Actor, teamId: number): Promise<{ configured: boolean }> {
    await this.deps.access.require(actor, teamId, 'members:manage');
    return { configured: this.deps.mailer.configured };
  }

  async create(actor: Actor, teamId: number, input: NewInvitationInput): Promise<CreatedInvitation> {
    const membership = await this.deps.access.require(actor, teamId, 'members:manage');
    const role = input.role ?? 'projectViewer';
    const projects = await this.deps.teamsService.checkGrant(membership, role, input.projects ?? []);
    let email: string | null = null;
    if (input.email !== undefined) {
      email = normalizeEmail(input.email);
      if (!isEmail(email)) throw ValidationError.field('body.email', 'must be an email address');
    }
    const token = newToken('invite');
    const at = this.clock();
    const stored = await this.deps.invitations.create({
      teamId,
      createdBy: membership.userId,
      email,
      role,
      projects,
      canExport: input.canExport ?? false,
      tokenHash: hashToken(token),
      createdAt: at,
      expiresAt: new Date(at.getTime() + (input.expiresInDays ?? INVITE_DEFAULT_DAYS) * DAY_MS),
    });
    const url = `${this.deps.appUrl}/invite?token=${encodeURIComponent(token)}`;
    const created: CreatedInvitation = { url, emailed: false, invitation: this.view(stored, at) };
    if (email !== null && this.deps.mailer.configured) {
      const team = await this.deps.teams.findById(teamId);
      const sent = await this.deps.mailer.send([email], `You are invited to join ${team?.name ?? 'a team'} on Plotline`, inviteText(team?.name, stored, url));
      created.emailed = sent.ok;
      if (!sent.ok) created.mailProblem = sent.detail;
    }
    return created;
  }

  async list(actor: Actor, teamId: number): Promise<InvitationView[]> {
    await this.deps.access.require(actor, teamId, 'members:manage');
    const at = this.clock();
    return (await this.deps.invitations.listForTeam(teamId)).map((invitation) => this.view(invitation, at));
  }

  /** Revokes a pending invitation; revoking one again, or one already used or expired, changes nothing. */
  async revoke(actor: Actor, teamId: number, invitationId: number): Promise<void> {
    const membership = await this.deps.access.require(actor, teamId, 'members:manage');
    const invitation = await this.deps.invitations.findInTeam(teamId, invitationId);
    if (!invitation) throw new NotFoundError('Invitation');
    this.deps.teamsService.assertOutranksOrEquals(membership, invitation.role);
    await this.deps.invitations.revoke(invitation.id, this.clock());
  }

  /**
   * A signed-in user joins the team of the invitation. `teamId` is the team the call names, when
   * it names one (`POST /team/{team_id}/invite/accept`); a link of another team is then invalid.
   * Accepting again a link this very user has used answers the team (Chartbrew's app accepts right
   * after signing up through the same link).
   */
  async accept(actor: Actor, token: string, teamId?: number): Promise<TeamView> {
    if (actor.kind !== 'user') throw new ForbiddenError('A team API key cannot accept invitations; sign in as the invited person', 'FORBIDDEN');
    const invitation = await this.deps.invitations.findByHash(hashToken(token));
    if (!invitation || (teamId !== undefined && invitation.team_id !== teamId)) throw invalidLink();
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new NotFoundError('User');
    const at = this.clock();
    if (invitation.used_by === actor.userId && (await this.deps.teams.findRole(invitation.team_id, actor.userId))) {
      return this.deps.teamsService.get(actor, invitation.team_id);
    }
    this.assertUsable(invitation, at);
    this.assertAddressee(invitation, user.email);
    if (await this.deps.teams.findRole(invitation.team_id, actor.userId)) {
      throw new ConflictError('You are already a member of this team; the invitation was left unused', 'ALREADY_MEMBER');
    }
    try {
      await this.deps.db.transaction().execute((trx) => this.join(invitation, actor.userId, at, trx));
    } catch (error) {
      if (error instanceof GoneError) throw error;
      // The unique (team, user) index: the same user joining twice at once.
      if (await this.deps.teams.findRole(invitation.team_id, actor.userId)) throw new ConflictError('You are already a member of this team', 'ALREADY_MEMBER');
      throw error;
    }
    return this.deps.teamsService.get(actor, invitation.team_id);
  }

  /** `POST /user/invited`: signs the invited person up straight into the team (no personal team). */
  async signUp(input: Signup & { inviteToken: string }): Promise<UserWithToken> {
    const invitation = await this.deps.invitations.findByHash(hashToken(input.inviteToken));
    if (!invitation) throw invalidLink();
    const at = this.clock();
    this.assertUsable(invitation, at);
    this.assertAddressee(invitation, input.email);
    const { inviteToken: _token, ...signup } = input;
    return this.deps.usersService.registerInvited(signup, (userId, trx) => this.join(invitation, userId, at, trx));
  }

  /** Uses the invitation and adds the member, in the caller's transaction. */
  private async join(invitation: Invitation, userId: number, at: Date, trx: Db): Promise<void> {
    if (!(await this.deps.invitations.consume(invitation.id, userId, at, trx))) {
      // Someone else used it, or it was revoked, between the check and now: say which.
      const current = await this.deps.invitations.findInTeam(invitation.team_id, invitation.id, trx);
      if (!current) throw invalidLink();
      this.assertUsable(current, at);
      throw new GoneError('This invitation link has already been used; ask the team for a new one', 'INVITE_USED');
    }
    await this.deps.teams.addRole(invitation.team_id, userId, invitation.role, invitation.projects, trx, invitation.canExport);
  }

  private assertUsable(invitation: Invitation, at: Date): void {
    switch (status(invitation, at)) {
      case 'used':
        throw new GoneError('This invitation link has already been used; ask the team for a new one', 'INVITE_USED');
      case 'revoked':
        throw new GoneError('This invitation link was revoked; ask the team for a new one', 'INVITE_REVOKED');
      case 'expired':
        throw new GoneError(`This invitation link expired on ${invitation.expiresAt}; ask the team for a new one`, 'INVITE_EXPIRED');
      case 'pending':
        return;
    }
  }

  /** An invitation made out to an address may be used only by that address. */
  private assertAddressee(invitation: Invitation, email: string): void {
    if (invitation.email !== null && invitation.email !== normalizeEmail(email)) {
      throw new ForbiddenError('This invitation was sent to another e-mail address', 'INVITE_EMAIL_MISMATCH');
    }
  }

  private view(invitation: Invitation, at: Date): InvitationView {
    return {
      id: invitation.id,
      team_id: invitation.team_id,
      email: invitation.email,
      role: invitation.role,
      projects: invitation.projects,
      canExport: invitation.canExport,
      status: status(invitation, at),
      created_by: invitation.created_by,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
      usedAt: invitation.usedAt,
      used_by: invitation.used_by,
      revokedAt: invitation.revokedAt,
    };
  }
}

function inviteText(teamName: string | undefined, invitation: Invitation, url: string): string {
  return [
    `You are invited to join ${teamName ? `the team "${teamName}"` : 'a team'} on Plotline as ${invitation.role}.`,
    '',
    `Open this link to accept (it works once, until ${invitation.expiresAt}):`,
    url,
    '',
    'If you did not expect this invitation, ignore this e-mail.',
  ].join('\n');
}
