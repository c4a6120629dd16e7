import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted } from '../../platform/http-schemas.js';
import {
  ChartPolicyItemParams,
  ChartPolicyParams,
  ProjectPolicyItemParams,
  ProjectPolicyParams,
  SharePolicy,
  ShareTokenBody,
  ShareTokenResult,
  UpdateSharePolicy,
} from './sharing-schemas.js';
import type { SharingService, ShareTarget } from './sharing-service.js';

export const sharingRoutes: FastifyPluginAsyncTypebox<{ sharing: SharingService }> = async (app, { sharing }) => {
  const tags = ['sharing'];
  const dashboard = (params: { id: number }): ShareTarget => ({ projectId: params.id });
  const chart = (params: { project_id: number; id: number }): ShareTarget => ({ projectId: params.project_id, chartId: params.id });

  // ---------- dashboard policies ----------

  app.post(
    '/project/:id/share/policy',
    { schema: { tags, summary: 'Create a dashboard share policy (no body)', params: ProjectPolicyParams, response: { 200: SharePolicy } } },
    async (request) => sharing.create(actorOf(request), dashboard(request.params)),
  );

  app.get(
    '/project/:id/share/policy',
    { schema: { tags, summary: "The dashboard's share policies", params: ProjectPolicyParams, response: { 200: Type.Array(SharePolicy) } } },
    async (request) => sharing.list(actorOf(request), dashboard(request.params)),
  );

  app.put(
    '/project/:id/share/policy/:policy_id',
    {
      schema: {
        tags,
        summary: 'Update params, allow_params, expires_at or visibility',
        params: ProjectPolicyItemParams,
        body: UpdateSharePolicy,
        response: { 200: SharePolicy },
      },
    },
    async (request) => sharing.update(actorOf(request), dashboard(request.params), request.params.policy_id, request.body),
  );

  app.delete(
    '/project/:id/share/policy/:policy_id',
    { schema: { tags, summary: 'Delete a dashboard share policy', params: ProjectPolicyItemParams, response: { 200: Deleted } } },
    async (request) => {
      await sharing.delete(actorOf(request), dashboard(request.params), request.params.policy_id);
      return { deleted: true };
    },
  );

  app.post(
    '/project/:id/share/policy/:policy_id/revoke',
    {
      schema: { tags, summary: 'Invalidate every token issued for the policy so far', params: ProjectPolicyItemParams, response: { 200: SharePolicy } },
    },
    async (request) => sharing.revoke(actorOf(request), dashboard(request.params), request.params.policy_id),
  );

  // ---------- chart policies ----------

  app.post(
    '/project/:project_id/chart/:id/share/policy',
    { schema: { tags, summary: 'Create a chart share policy (no body)', params: ChartPolicyParams, response: { 200: SharePolicy } } },
    async (request) => sharing.create(actorOf(request), chart(request.params)),
  );

  app.get(
    '/project/:project_id/chart/:id/share/policy',
    { schema: { tags, summary: "The chart's share policies", params: ChartPolicyParams, response: { 200: Type.Array(SharePolicy) } } },
    async (request) => sharing.list(actorOf(request), chart(request.params)),
  );

  app.put(
    '/project/:project_id/chart/:id/share/policy/:policy_id',
    {
      schema: {
        tags,
        summary: 'Update params, allow_params, expires_at or visibility',
        params: ChartPolicyItemParams,
        body: UpdateSharePolicy,
        response: { 200: SharePolicy },
      },
    },
    async (request) => sharing.update(actorOf(request), chart(request.params), request.params.policy_id, request.body),
  );

  app.delete(
    '/project/:project_id/chart/:id/share/policy/:policy_id',
    { schema: { tags, summary: 'Delete a chart share policy', params: ChartPolicyItemParams, response: { 200: Deleted } } },
    async (request) => {
      await sharing.delete(actorOf(request), chart(request.params), request.params.policy_id);
      return { deleted: true };
    },
  );

  app.post(
    '/project/:project_id/chart/:id/share/policy/:policy_id/revoke',
    {
      schema: { tags, summary: 'Invalidate every token issued for the policy so far', params: ChartPolicyItemParams, response: { 200: SharePolicy } },
    },
    async (request) => sharing.revoke(actorOf(request), chart(request.params), request.params.policy_id),
  );

  // ---------- share tokens ----------

  const tokenSummary = 'Sign a share token for the newest policy (or body.sharePolicyId); share_policy first updates its params and allow_params';

  app.post(
    '/project/:id/share/token',
    { schema: { tags, summary: tokenSummary, params: ProjectPolicyParams, body: ShareTokenBody, response: { 200: ShareTokenResult } } },
    async (request) => sharing.issueToken(actorOf(request), dashboard(request.params), request.body ?? {}),
  );

  app.post(
    '/project/:project_id/chart/:id/share/token',
    { schema: { tags, summary: tokenSummary, params: ChartPolicyParams, body: ShareTokenBody, response: { 200: ShareTokenResult } } },
    async (request) => sharing.issueToken(actorOf(request), chart(request.params), request.body ?? {}),
  );
};
