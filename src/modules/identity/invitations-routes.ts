import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ForbiddenError } from '../../errors/index.js';
import { actorOf } from '../../platform/auth.js';
import { Deleted, ErrorResponse, Ref, TeamParams } from '../../platform/http-schemas.js';
import { AcceptInvitation, AcceptInvitationByUser, CreateInvitation, CreatedInvitation, Invitation, InvitationParams, InvitedSignup } from './invitations-schemas.js';
import type { InvitationsService } from './invitations-service.js';
import { Team, UserParams } from './teams-schemas.js';
import { UserWithToken } from './users-schemas.js';

const tags = ['invitations'];
/** A used, revoked or expired link (`INVITE_USED`, `INVITE_REVOKED`, `INVITE_EXPIRED`). */
const gone = { 410: Ref(ErrorResponse) };
const EXAMPLE_TOKEN = 'pli_3q2b9dXo1mG0m0lq6n2s4T5Yw8Zc7Vb1Na0Kf9Jh2Ug';

/** Creating, listing and revoking invitations, and accepting one when signed in. */
export const invitationRoutes: FastifyPluginAsyncTypebox<{ invitations: InvitationsService }> = async (app, { invitations }) => {
  app.post(
    '/team/:team_id/invite',
    {
      schema: {
        tags,
        operationId: 'createInvitation',
        summary: 'Invite someone to the team (the link is shown once; e-mailed when the body names an address and SMTP is configured)',
        params: TeamParams,
        body: Ref(CreateInvitation, {
          examples: [
            { role: 'projectViewer', projects: [2], canExport: false },
            { role: 'projectEditor', projects: [2], canExport: true, email: 'grace@example.com', expiresInDays: 3 },
          ],
        }),
        response: { 200: Ref(CreatedInvitation) },
      },
    },
    async (request) => {
      const { mailProblem, ...created } = await invitations.create(actorOf(request), request.params.team_id, request.body);
      if (mailProblem !== undefined) request.log.warn({ event: 'invitation_mail_failed', invitationId: created.invitation.id, detail: mailProblem }, 'invitation e-mail not sent');
      return created;
    },
  );

  app.get(
    '/team/:team_id/invite',
    {
      schema: { tags, operationId: 'listInvitations', summary: "The team's invitations, newest first (never their links)", params: TeamParams, response: { 200: Type.Array(Ref(Invitation)) } },
    },
    async (request) => invitations.list(actorOf(request), request.params.team_id),
  );

  app.get(
    '/team/:team_id/invite/email',
    {
      schema: {
        tags,
        operationId: 'getInvitationEmail',
        summary: 'Whether invitations that name an address are e-mailed (an SMTP server is configured on this instance)',
        params: TeamParams,
        response: { 200: Type.Object({ configured: Type.Boolean() }, { description: 'False: share the link yourself' }) },
      },
    },
    async (request) => invitations.emailSettings(actorOf(request), request.params.team_id),
  );

  app.delete(
    '/team/:team_id/invite/:invite_id',
    {
      schema: {
        tags,
        operationId: 'revokeInvitation',
        summary: 'Revoke an invitation: its link stops working at once (listed afterwards as revoked)',
        params: InvitationParams,
        response: { 200: Ref(Deleted) },
      },
    },
    async (request) => {
      await invitations.revoke(actorOf(request), request.params.team_id, request.params.invite_id);
      return { deleted: true };
    },
  );

  app.post(
    '/team/:team_id/invite/accept',
    {
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary: 'Join the team with an invitation link, signed in as the invited person',
        params: TeamParams,
        body: Ref(AcceptInvitation, { examples: [{ inviteToken: EXAMPLE_TOKEN }] }),
        response: { 200: Ref(Team), ...gone },
      },
    },
    async (request) => invitations.accept(actorOf(request), request.body.inviteToken, request.params.team_id),
  );

  // Chartbrew's web app accepts with this call, right after signing up through the link.
  app.post(
    '/team/user/:user_id',
    {
      schema: {
        tags,
        operationId: 'acceptInvitationForUser',
        summary: "Join the team of an invitation link (Chartbrew's call; `user_id` is the caller)",
        params: UserParams,
        body: Ref(AcceptInvitationByUser, { examples: [{ token: EXAMPLE_TOKEN }] }),
        response: { 200: Ref(Team), ...gone },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      if (actor.kind !== 'user' || actor.userId !== request.params.user_id) throw new ForbiddenError('Only the signed-in user may accept an invitation for themselves');
      return invitations.accept(actor, request.body.token);
    },
  );
};

/** `POST /user/invited`: public, rate limited like sign-up. */
export const publicInvitationRoutes: FastifyPluginAsyncTypebox<{ invitations: InvitationsService; authLimit: { max: number; timeWindow: number } }> = async (
  app,
  { invitations, authLimit },
) => {
  app.post(
    '/user/invited',
    {
      config: { rateLimit: authLimit },
      schema: {
        tags,
        operationId: 'signUpInvited',
        summary: 'Sign up through an invitation link, straight into its team (also when sign-up is closed)',
        security: [],
        body: Ref(InvitedSignup, { examples: [{ name: 'Grace Hopper', email: 'grace@example.com', password: 'correct horse battery', inviteToken: EXAMPLE_TOKEN }] }),
        response: { 200: Ref(UserWithToken), ...gone },
      },
    },
    async (request) => invitations.signUp(request.body),
  );
};
