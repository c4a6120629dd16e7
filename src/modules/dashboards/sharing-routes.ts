import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Ref } from '../../platform/http-schemas.js';
import {
  ChartPolicyItemParams,
  ChartPolicyParams,
  ProjectPolicyItemParams,
  ProjectPolicyParams,
  SharePolicy,
  ShareTokenBody,
  ShareTokenResult,
  UpdateSharePolicy,
  type UpdateSharePolicyInput,
} from './sharing-schemas.js';
import type { SharingService, ShareTarget } from './sharing-service.js';

export const sharingRoutes: FastifyPluginAsyncTypebox<{ sharing: SharingService }> = async (app, { sharing }) => {
  const tags = ['sharing'];
  const dashboard = (params: { id: number }): ShareTarget => ({ projectId: params.id });
  const chart = (params: { project_id: number; id: number }): ShareTarget => ({ projectId: params.project_id, chartId: params.id });
  const policyExample: UpdateSharePolicyInput = { params: [{ key: 'country', value: 'FR' }], allow_params: false, expires_at: '2030-01-01T00:00:00.000Z', visibility: 'private' };
  const tokenExample = { sharePolicyId: 3, exp: '2030-01-01T00:00:00.000Z' };

  // ---------- dashboard policies ----------

  app.post(
    '/project/:id/share/policy',
    {
      schema: { tags, operationId: 'createDashboardSharePolicy', summary: 'Create a dashboard share policy (no body)', params: ProjectPolicyParams, response: { 200: Ref(SharePolicy) } },
    },
    async (request) => sharing.create(actorOf(request), dashboard(request.params)),
  );

  app.get(
    '/project/:id/share/policy',
    {
      schema: { tags, operationId: 'listDashboardSharePolicies', summary: "The dashboard's share policies", params: ProjectPolicyParams, response: { 200: Type.Array(Ref(SharePolicy)) } },
    },
    async (request) => sharing.list(actorOf(request), dashboard(request.params)),
  );

  app.put(
    '/project/:id/share/policy/:policy_id',
    {
      schema: {
        tags,
        operationId: 'updateDashboardSharePolicy',
        summary: 'Update params, allow_params, expires_at or visibility',
        params: ProjectPolicyItemParams,
        body: Ref(UpdateSharePolicy, { examples: [policyExample] }),
        response: { 200: Ref(SharePolicy) },
      },
    },
    async (request) => sharing.update(actorOf(request), dashboard(request.params), request.params.policy_id, request.body),
  );

  app.delete(
    '/project/:id/share/policy/:policy_id',
    { schema: { tags, operationId: 'deleteDashboardSharePolicy', summary: 'Delete a dashboard share policy', params: ProjectPolicyItemParams, response: { 200: Ref(Deleted) } } },
    async (request) => {
      await sharing.delete(actorOf(request), dashboard(request.params), request.params.policy_id);
      return { deleted: true };
    },
  );

  app.post(
    '/project/:id/share/policy/:policy_id/revoke',
    {
      schema: {
        tags,
        operationId: 'revokeDashboardSharePolicy',
        summary: 'Invalidate every token issued for the policy so far',
        params: ProjectPolicyItemParams,
        response: { 200: Ref(SharePolicy) },
      },
    },
    async (request) => sharing.revoke(actorOf(request), dashboard(request.params), request.params.policy_id),
  );

  // ---------- chart policies ----------

  app.post(
    '/project/:project_id/chart/:id/share/policy',
    { schema: { tags, operationId: 'createChartSharePolicy', summary: 'Create a chart share policy (no body)', params: ChartPolicyParams, response: { 200: Ref(SharePolicy) } } },
    async (request) => sharing.create(actorOf(request), chart(request.params)),
  );

  app.get(
    '/project/:project_id/chart/:id/share/policy',
    { schema: { tags, operationId: 'listChartSharePolicies', summary: "The chart's share policies", params: ChartPolicyParams, response: { 200: Type.Array(Ref(SharePolicy)) } } },
    async (request) => sharing.list(actorOf(request), chart(request.params)),
  );

  app.put(
    '/project/:project_id/chart/:id/share/policy/:policy_id',
    {
      schema: {
        tags,
        operationId: 'updateChartSharePolicy',
        summary: 'Update params, allow_params, expires_at or visibility',
        params: ChartPolicyItemParams,
        body: Ref(UpdateSharePolicy, { examples: [policyExample] }),
        response: { 200: Ref(SharePolicy) },
      },
    },
    async (request) => sharing.update(actorOf(request), chart(request.params), request.params.policy_id, request.body),
  );

  app.delete(
    '/project/:project_id/chart/:id/share/policy/:policy_id',
    { schema: { tags, operationId: 'deleteChartSharePolicy', summary: 'Delete a chart share policy', params: ChartPolicyItemParams, response: { 200: Ref(Deleted) } } },
    async (request) => {
      await sharing.delete(actorOf(request), chart(request.params), request.params.policy_id);
      return { deleted: true };
    },
  );

  app.post(
    '/project/:project_id/chart/:id/share/policy/:policy_id/revoke',
    {
      schema: {
        tags,
        operationId: 'revokeChartSharePolicy',
        summary: 'Invalidate every token issued for the policy so far',
        params: ChartPolicyItemParams,
        response: { 200: Ref(SharePolicy) },
      },
    },
    async (request) => sharing.revoke(actorOf(request), chart(request.params), request.params.policy_id),
  );

  // ---------- share tokens ----------

  const tokenSummary = 'Sign a share token for the newest policy (or body.sharePolicyId); share_policy first updates its params and allow_params';

  app.post(
    '/project/:id/share/token',
    {
      schema: {
        tags,
        operationId: 'createDashboardShareToken',
        summary: tokenSummary,
        params: ProjectPolicyParams,
        body: Ref(ShareTokenBody, { examples: [tokenExample] }),
        response: { 200: Ref(ShareTokenResult) },
      },
    },
    async (request) => sharing.issueToken(actorOf(request), dashboard(request.params), request.body ?? {}),
  );

  app.post(
    '/project/:project_id/chart/:id/share/token',
    {
      schema: {
        tags,
        operationId: 'createChartShareToken',
        summary: tokenSummary,
        params: ChartPolicyParams,
        body: Ref(ShareTokenBody, { examples: [tokenExample] }),
        response: { 200: Ref(ShareTokenResult) },
      },
    },
    async (request) => sharing.issueToken(actorOf(request), chart(request.params), request.body ?? {}),
  );
};
