import { Type, type Static } from 'typebox';
import { Id, RoleSchema, Timestamp } from '../../platform/http-schemas.js';

/** Days an invitation link stays usable: 7 unless the body says otherwise, never more than 30. */
export const INVITE_DEFAULT_DAYS = 7;
export const INVITE_MAX_DAYS = 30;

export const CreateInvitation = Type.Object(
  {
    role: Type.Optional(RoleSchema),
    projects: Type.Optional(Type.Array(Id, { maxItems: 1000, description: 'Projects a project role covers (ignored for teamOwner and teamAdmin)' })),
    canExport: Type.Optional(Type.Boolean({ description: 'Whether the new member may export chart data' })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 320, description: 'Only this address may use the link; e-mailed to it when SMTP is configured' })),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: INVITE_MAX_DAYS, description: `Days the link stays usable (default ${INVITE_DEFAULT_DAYS})` })),
  },
  { $id: 'CreateInvitation', description: 'What joining grants. Without `role`: projectViewer (as Chartbrew)' },
);

const InvitationStatus = Type.Enum(['pending', 'used', 'revoked', 'expired']);

export const Invitation = Type.Object(
  {
    id: Type.Integer(),
    team_id: Type.Integer(),
    email: Type.Union([Type.String(), Type.Null()]),
    role: RoleSchema,
    projects: Type.Array(Type.Integer()),
    canExport: Type.Boolean(),
    status: InvitationStatus,
    created_by: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    usedAt: Type.Union([Timestamp, Type.Null()]),
    used_by: Type.Union([Type.Integer(), Type.Null()]),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'Invitation', description: 'A team invitation; its link is shown only when it is created' },
);
export type InvitationView = Static<typeof Invitation>;

export const CreatedInvitation = Type.Object(
  {
    url: Type.String({ description: '`{APP_URL}/invite?token=…`: the only time the token is shown' }),
    emailed: Type.Boolean({ description: 'Whether the link was handed to the SMTP server (an invitation with an `email`, SMTP configured)' }),
    invitation: Invitation,
  },
  { $id: 'CreatedInvitation' },
);

export const InviteToken = Type.String({ minLength: 1, maxLength: 200 });

export const AcceptInvitation = Type.Object({ inviteToken: InviteToken }, { $id: 'AcceptInvitation' });

/** Chartbrew's accept call: `POST /team/user/{user_id}` with the link's token as `token`. */
export const AcceptInvitationByUser = Type.Object({ token: InviteToken }, { $id: 'AcceptInvitationByUser' });

export const InvitedSignup = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
    inviteToken: InviteToken,
  },
  { $id: 'InvitedSignUp' },
);

export const InvitationParams = Type.Object({ team_id: Id, invite_id: Id });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const INVITATION_COMPONENTS = [CreateInvitation, Invitation, CreatedInvitation, AcceptInvitation, AcceptInvitationByUser, InvitedSignup];
