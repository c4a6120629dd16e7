import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Ref, TeamParams } from '../../platform/http-schemas.js';
import { AddMember, CreateTeam, Member, MemberParams, MemberRemoved, Team, TeamRole, UpdateMember, UpdateTeam, UpdateTeamRoleBody, UserParams } from './teams-schemas.js';
import type { TeamsService } from './teams-service.js';

export const teamRoutes: FastifyPluginAsyncTypebox<{ teams: TeamsService }> = async (app, { teams }) => {
  const tags = ['teams'];

  app.post(
    '/team',
    {
      schema: {
        tags,
        operationId: 'createTeam',
        summary: 'Create a team (caller becomes teamOwner)',
        body: Ref(CreateTeam, { examples: [{ name: 'Analytics', allowReportExport: true }] }),
        response: { 200: Ref(Team) },
      },
    },
    async (request) => teams.create(actorOf(request), request.body),
  );

  app.get('/team', { schema: { tags, operationId: 'listTeams', summary: "The caller's teams with their projects", response: { 200: Type.Array(Ref(Team)) } } }, async (request) =>
    teams.listMine(actorOf(request)),
  );

  app.get('/team/:team_id', { schema: { tags, operationId: 'getTeam', summary: 'Get a team', params: TeamParams, response: { 200: Ref(Team) } } }, async (request) =>
    teams.get(actorOf(request), request.params.team_id),
  );

  app.put(
    '/team/:team_id',
    {
      schema: {
        tags,
        operationId: 'updateTeam',
        summary: 'Update name and flags (teamOwner, teamAdmin)',
        params: TeamParams,
        body: Ref(UpdateTeam, { examples: [{ name: 'Analytics', showBranding: false, allowReportRefresh: true, allowReportExport: true }] }),
        response: { 200: Ref(Team) },
      },
    },
    async (request) => teams.update(actorOf(request), request.params.team_id, request.body),
  );

  app.delete(
    '/team/:team_id',
    { schema: { tags, operationId: 'deleteTeam', summary: 'Delete a team and everything it owns (teamOwner)', params: TeamParams, response: { 200: Ref(Deleted) } } },
    async (request) => {
      await teams.delete(actorOf(request), request.params.team_id);
      return { deleted: true };
    },
  );

  app.get(
    '/team/user/:user_id',
    { schema: { tags, operationId: 'listUserTeams', summary: "A user's teams visible to the caller", params: UserParams, response: { 200: Type.Array(Ref(Team)) } } },
    async (request) => teams.listForUser(actorOf(request), request.params.user_id),
  );

  app.get(
    '/team/:team_id/members',
    { schema: { tags, operationId: 'listMembers', summary: "List members: every member for teamOwner and teamAdmin; a project role's own row only", params: TeamParams, response: { 200: Type.Array(Ref(Member)) } } },
    async (request) => teams.members(actorOf(request), request.params.team_id),
  );

  app.post(
    '/team/:team_id/members',
    {
      schema: {
        tags,
        operationId: 'addMember',
        summary: 'Add an existing user to the team',
        params: TeamParams,
        body: Ref(AddMember, { examples: [{ email: 'grace@example.com', role: 'projectEditor', projects: [2] }] }),
        response: { 200: Ref(Member) },
      },
    },
    async (request) => teams.addMember(actorOf(request), request.params.team_id, request.body),
  );

  app.put(
    '/team/:team_id/members/:user_id',
    {
      schema: {
        tags,
        operationId: 'updateMember',
        summary: "Change a member's role or projects",
        params: MemberParams,
        body: Ref(UpdateMember, { examples: [{ role: 'projectViewer', projects: [2] }] }),
        response: { 200: Ref(Member) },
      },
    },
    async (request) => teams.updateMember(actorOf(request), request.params.team_id, request.params.user_id, request.body),
  );

  app.delete(
    '/team/:team_id/members/:user_id',
    { schema: { tags, operationId: 'removeMember', summary: 'Remove a member (or leave the team)', params: MemberParams, response: { 200: Ref(Deleted) } } },
    async (request) => {
      await teams.removeMember(actorOf(request), request.params.team_id, request.params.user_id);
      return { deleted: true };
    },
  );

  // Chartbrew's member routes (its web app's team settings): the same rules as the two above.
  app.put(
    '/team/:team_id/role',
    {
      schema: {
        tags,
        operationId: 'updateTeamRole',
        summary: "Change a member's role, projects or export right, the member named by user_id (Chartbrew's route; PUT /team/{team_id}/members/{user_id} is the same)",
        params: TeamParams,
        body: Ref(UpdateTeamRoleBody, { examples: [{ user_id: 7, role: 'projectEditor', projects: [2], canExport: true }] }),
        response: { 200: Ref(TeamRole) },
      },
    },
    async (request) => {
      const { user_id: userId, ...patch } = request.body;
      const member = await teams.updateMember(actorOf(request), request.params.team_id, userId, patch);
      return member.TeamRoles[0]!;
    },
  );

  app.delete(
    '/team/:team_id/member/:user_id',
    {
      schema: {
        tags,
        operationId: 'removeTeamMember',
        summary: "Remove a member (Chartbrew's route; DELETE /team/{team_id}/members/{user_id} is the same)",
        params: MemberParams,
        response: { 200: Ref(MemberRemoved) },
      },
    },
    async (request) => {
      await teams.removeMember(actorOf(request), request.params.team_id, request.params.user_id);
      return { removed: true as const };
    },
  );
};
