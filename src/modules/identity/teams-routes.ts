import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, TeamParams } from '../../platform/http-schemas.js';
import { AddMember, CreateTeam, Member, MemberParams, Team, UpdateMember, UpdateTeam, UserParams } from './teams-schemas.js';
import type { TeamsService } from './teams-service.js';

export const teamRoutes: FastifyPluginAsyncTypebox<{ teams: TeamsService }> = async (app, { teams }) => {
  const tags = ['teams'];

  app.post('/team', { schema: { tags, summary: 'Create a team (caller becomes teamOwner)', body: CreateTeam, response: { 200: Team } } }, async (request) =>
    teams.create(actorOf(request), request.body),
  );

  app.get('/team', { schema: { tags, summary: "The caller's teams with their projects", response: { 200: Type.Array(Team) } } }, async (request) =>
    teams.listMine(actorOf(request)),
  );

  app.get('/team/:team_id', { schema: { tags, summary: 'Get a team', params: TeamParams, response: { 200: Team } } }, async (request) =>
    teams.get(actorOf(request), request.params.team_id),
  );

  app.put(
    '/team/:team_id',
    { schema: { tags, summary: 'Update name and flags (teamOwner, teamAdmin)', params: TeamParams, body: UpdateTeam, response: { 200: Team } } },
    async (request) => teams.update(actorOf(request), request.params.team_id, request.body),
  );

  app.delete(
    '/team/:team_id',
    { schema: { tags, summary: 'Delete a team and everything it owns (teamOwner)', params: TeamParams, response: { 200: Deleted } } },
    async (request) => {
      await teams.delete(actorOf(request), request.params.team_id);
      return { deleted: true };
    },
  );

  app.get(
    '/team/user/:user_id',
    { schema: { tags, summary: "A user's teams visible to the caller", params: UserParams, response: { 200: Type.Array(Team) } } },
    async (request) => teams.listForUser(actorOf(request), request.params.user_id),
  );

  app.get(
    '/team/:team_id/members',
    { schema: { tags, summary: 'List members (teamOwner, teamAdmin)', params: TeamParams, response: { 200: Type.Array(Member) } } },
    async (request) => teams.members(actorOf(request), request.params.team_id),
  );

  app.post(
    '/team/:team_id/members',
    { schema: { tags, summary: 'Add an existing user to the team', params: TeamParams, body: AddMember, response: { 200: Member } } },
    async (request) => teams.addMember(actorOf(request), request.params.team_id, request.body),
  );

  app.put(
    '/team/:team_id/members/:user_id',
    { schema: { tags, summary: "Change a member's role or projects", params: MemberParams, body: UpdateMember, response: { 200: Member } } },
    async (request) => teams.updateMember(actorOf(request), request.params.team_id, request.params.user_id, request.body),
  );

  app.delete(
    '/team/:team_id/members/:user_id',
    { schema: { tags, summary: 'Remove a member (or leave the team)', params: MemberParams, response: { 200: Deleted } } },
    async (request) => {
      await teams.removeMember(actorOf(request), request.params.team_id, request.params.user_id);
      return { deleted: true };
    },
  );
};
