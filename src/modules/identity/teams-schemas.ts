import { Type, type Static } from 'typebox';
import { Id, Ref, RoleSchema, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';

export { RoleSchema };

const Name = Type.String({ minLength: 1, maxLength: 200 });

export const TeamRole = Type.Object({
  id: Type.Integer(),
  team_id: Type.Integer(),
  user_id: Type.Integer(),
  role: RoleSchema,
  projects: Type.Array(Type.Integer()),
  canExport: Type.Boolean(),
}, { $id: 'TeamRole' });

/** Project roles see id, name and their own role only; the other fields are then absent. */
export const Team = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  showBranding: Type.Optional(Type.Boolean()),
  allowReportRefresh: Type.Optional(Type.Boolean()),
  allowReportExport: Type.Optional(Type.Boolean()),
  allowExternalRecipients: Type.Optional(Type.Boolean({ description: 'Scheduled deliveries may e-mail addresses outside the team (default false)' })),
  TeamRoles: Type.Array(Ref(TeamRole)),
  Projects: Type.Optional(Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }))),
  createdAt: Type.Optional(Timestamp),
  updatedAt: Type.Optional(Timestamp),
}, { $id: 'Team' });
/** A team as the caller may see it. */
export type TeamView = Static<typeof Team>;

/** Chartbrew's team answer also lists its connections' ids. */
const CHARTBREW_TEAM_KEYS = ['Connections'];

export const CreateTeam = WriteBody({
  name: Name,
  showBranding: Type.Optional(Type.Boolean()),
  allowReportRefresh: Type.Optional(Type.Boolean()),
  allowReportExport: Type.Optional(Type.Boolean()),
  allowExternalRecipients: Type.Optional(Type.Boolean()),
}, { $id: 'CreateTeam', answer: Team, ignored: CHARTBREW_TEAM_KEYS });

export const UpdateTeam = WriteBody({
  name: Type.Optional(Name),
  showBranding: Type.Optional(Type.Boolean()),
  allowReportRefresh: Type.Optional(Type.Boolean()),
  allowReportExport: Type.Optional(Type.Boolean()),
  allowExternalRecipients: Type.Optional(Type.Boolean()),
}, { $id: 'UpdateTeam', answer: Team, ignored: CHARTBREW_TEAM_KEYS });

export const Member = Type.Object({
  id: Type.Integer({ description: "The member's role row in this team (as `TeamRoles[0].id`); the user is `user_id`" }),
  team_id: Type.Integer(),
  user_id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  projects: Type.Array(Type.Integer()),
  canExport: Type.Boolean(),
  TeamRoles: Type.Array(Ref(TeamRole), {
    description: "The member's role in this team, once more in the shape Chartbrew's clients read (`member.TeamRoles`): one item",
  }),
}, { $id: 'TeamMember' });

const ProjectIds = Type.Array(Id, { maxItems: 1000 });

/** Chartbrew's member is its user with `TeamRoles` and pinned dashboards. */
const CHARTBREW_MEMBER_KEYS = ['TeamRoles', 'PinnedDashboards', 'createdAt', 'updatedAt'];

export const AddMember = WriteBody({
  email: Type.String({ minLength: 3, maxLength: 320 }),
  role: RoleSchema,
  projects: Type.Optional(ProjectIds),
}, { $id: 'AddTeamMember', answer: Member, ignored: CHARTBREW_MEMBER_KEYS });

const canExport = Type.Optional(Type.Boolean({ description: 'Whether the member may export chart data' }));

export const UpdateMember = WriteBody({
  role: Type.Optional(RoleSchema),
  projects: Type.Optional(ProjectIds),
  canExport,
}, { $id: 'UpdateTeamMember', answer: Member, ignored: CHARTBREW_MEMBER_KEYS });

/**
 * Chartbrew's `PUT /team/{id}/role`: a member's role row, named by `user_id` in the body (its
 * `id` and `team_id` are read-only: the row is found by team and user, never moved to another team).
 */
export const UpdateTeamRoleBody = WriteBody({
  user_id: Id,
  role: Type.Optional(RoleSchema),
  projects: Type.Optional(ProjectIds),
  canExport,
}, { $id: 'UpdateTeamRole', answer: TeamRole, ignored: ['createdAt', 'updatedAt'] });

export const MemberRemoved = Type.Object({ removed: Type.Literal(true) }, { $id: 'MemberRemoved' });

export const MemberParams = Type.Object({ team_id: Id, user_id: Id });
export const UserParams = Type.Object({ user_id: Id });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const TEAM_COMPONENTS = [CreateTeam, UpdateTeam, TeamRole, Team, Member, AddMember, UpdateMember, UpdateTeamRoleBody, MemberRemoved];
