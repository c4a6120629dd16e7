import type { FastifySchema, RouteOptions } from 'fastify';
import { MASK } from '../redaction/index.js';

/**
 * What `/openapi.json` says about each operation beyond its schemas: a stable `operationId` (the
 * name generated clients use) and a request example that a person can copy. Keyed by
 * "METHOD /fastify/path". An operation missing here still gets a derived id and, when it takes a
 * JSON body, an example built from its schema; test/http/openapi-docs.test.ts checks that every
 * example is valid against its route's body schema.
 */
interface OperationDoc {
  id: string;
  example?: unknown;
}

const chartConfig = { dataset_id: 7, xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' };
const policyUpdate = { params: [{ key: 'country', value: 'FR' }], allow_params: false, expires_at: '2030-01-01T00:00:00.000Z', visibility: 'private' };
const tokenBody = { sharePolicyId: 3, exp: '2030-01-01T00:00:00.000Z' };
const connection = { name: 'Shop database', type: 'postgres', host: 'db.example.com', port: '5432', dbName: 'shop', username: 'reader', password: 'secret', ssl: true, sslMode: 'require' };
const dataRequest = { connection_id: 4, query: 'select created_at, amount, country from orders where status = {{status}}' };
const runBody = { variables: { status: 'paid' }, limit: 100 };

export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /healthz': { id: 'getHealth' },
  'GET /readyz': { id: 'getReadiness' },
  'POST /user': { id: 'signUp', example: { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' } },
  'POST /user/login': { id: 'logIn', example: { email: 'ada@example.com', password: 'correct horse battery' } },
  'POST /user/logout': { id: 'logOut' },
  'GET /user/me': { id: 'getMe' },
  'GET /chart/share/:share_string': { id: 'getSharedChart' },
  'GET /project/dashboard/:brewName': { id: 'getSharedDashboard' },
  'GET /chart/share/:share_string/export': { id: 'exportSharedChart' },
  'GET /project/dashboard/:brewName/chart/:chart_id/export': { id: 'exportSharedDashboardChart' },
  'POST /team': { id: 'createTeam', example: { name: 'Analytics', allowReportExport: true } },
  'GET /team': { id: 'listTeams' },
  'GET /team/:team_id': { id: 'getTeam' },
  'PUT /team/:team_id': { id: 'updateTeam', example: { name: 'Analytics', showBranding: false, allowReportRefresh: true, allowReportExport: true } },
  'DELETE /team/:team_id': { id: 'deleteTeam' },
  'GET /team/user/:user_id': { id: 'listUserTeams' },
  'GET /team/:team_id/members': { id: 'listMembers' },
  'POST /team/:team_id/members': { id: 'addMember', example: { email: 'grace@example.com', role: 'projectEditor', projects: [2] } },
  'PUT /team/:team_id/members/:user_id': { id: 'updateMember', example: { role: 'projectViewer', projects: [2] } },
  'DELETE /team/:team_id/members/:user_id': { id: 'removeMember' },
  'POST /team/:team_id/apikey': { id: 'createTeamApiKey', example: { name: 'CI reporting', role: 'projectViewer', projects: [2] } },
  'GET /team/:team_id/apikey': { id: 'listTeamApiKeys' },
  'DELETE /team/:team_id/apikey/:id': { id: 'deleteTeamApiKey' },
  'POST /user/apikey': { id: 'createPersonalApiKey', example: { name: 'My laptop', ceiling: 'projectEditor' } },
  'GET /user/apikey': { id: 'listPersonalApiKeys' },
  'DELETE /user/apikey/:id': { id: 'deletePersonalApiKey' },
  'GET /team/:team_id/datasets': { id: 'listDatasets' },
  'POST /team/:team_id/datasets': { id: 'createDataset', example: { name: 'Orders', project_ids: [2], legend: 'Orders' } },
  'POST /team/:team_id/datasets/quick-create': {
    id: 'quickCreateDataset',
    example: { name: 'Orders', project_ids: [2], dataRequests: [{ ...dataRequest, variableBindings: [{ name: 'status', type: 'string', default_value: 'paid' }] }] },
  },
  'GET /team/:team_id/datasets/:dataset_id': { id: 'getDataset' },
  'PUT /team/:team_id/datasets/:dataset_id': { id: 'updateDataset', example: { name: 'Paid orders', legend: 'Paid orders' } },
  'DELETE /team/:team_id/datasets/:dataset_id': { id: 'deleteDataset' },
  'POST /team/:team_id/datasets/:dataset_id/dataRequests': { id: 'createDataRequest', example: dataRequest },
  'GET /team/:team_id/datasets/:dataset_id/dataRequests': { id: 'listDataRequests' },
  'GET /team/:team_id/datasets/:dataset_id/dataRequests/:id': { id: 'getDataRequest' },
  'PUT /team/:team_id/datasets/:dataset_id/dataRequests/:id': { id: 'updateDataRequest', example: { query: 'select * from orders where country = {{country}}' } },
  'DELETE /team/:team_id/datasets/:dataset_id/dataRequests/:id': { id: 'deleteDataRequest' },
  'POST /team/:team_id/datasets/:dataset_id/dataRequests/:id/variableBindings': { id: 'createVariableBinding', example: { name: 'country', type: 'string', default_value: 'FR', required: false } },
  'PUT /team/:team_id/datasets/:dataset_id/dataRequests/:id/variableBindings/:variable_id': { id: 'updateVariableBinding', example: { default_value: 'DE' } },
  'DELETE /team/:team_id/datasets/:dataset_id/dataRequests/:id/variableBindings/:variable_id': { id: 'deleteVariableBinding' },
  'GET /team/:team_id/connections/:connection_id/test': { id: 'testConnection' },
  'GET /team/:team_id/connections/:connection_id/schema': { id: 'getConnectionSchema' },
  'POST /team/:team_id/datasets/:dataset_id/dataRequests/:id/request': { id: 'runDataRequest', example: runBody },
  'GET /team/:team_id/datasets/:dataset_id/request': { id: 'runDatasetGet' },
  'POST /team/:team_id/datasets/:dataset_id/request': { id: 'runDataset', example: runBody },
  'POST /project/:project_id/chart/:id/query': { id: 'runChart', example: { variables: { status: 'paid' }, filters: [{ field: 'country', operator: 'is', value: 'FR' }] } },
  'GET /project/team/:team_id': { id: 'listProjects' },
  'POST /project': { id: 'createProject', example: { name: 'Sales', team_id: 1, timezone: 'Europe/Paris', updateSchedule: { frequency: 'daily', time: { hour: 6, minute: 0 }, timezone: 'Europe/Paris' } } },
  'GET /project/:id': { id: 'getProject' },
  'PUT /project/:id': { id: 'updateProject', example: { dashboardTitle: 'Sales overview', backgroundColor: '#0f172a', titleColor: '#f8fafc', timezone: 'UTC' } },
  'DELETE /project/:id': { id: 'deleteProject' },
  'GET /project/:project_id/chart': { id: 'listCharts' },
  'POST /project/:project_id/chart': { id: 'createChart', example: { name: 'Revenue per day', type: 'line', timeInterval: 'day', includeZeros: true } },
  'POST /project/:project_id/chart/quick-create': {
    id: 'quickCreateChart',
    example: { name: 'Revenue per day', type: 'line', timeInterval: 'day', includeZeros: true, layout: { lg: [0, 0, 6, 2] }, chartDatasetConfigs: [chartConfig] },
  },
  'POST /project/:project_id/chart/preview': {
    id: 'previewChart',
    example: { name: 'Revenue per day', type: 'line', timeInterval: 'day', includeZeros: true, chartDatasetConfigs: [chartConfig], variables: { status: 'paid' } },
  },
  'GET /project/:project_id/chart/:id': { id: 'getChart' },
  'PUT /project/:project_id/chart/:id': { id: 'updateChart', example: { name: 'Revenue', type: 'bar', layout: { lg: [6, 0, 6, 2] } } },
  'DELETE /project/:project_id/chart/:id': { id: 'deleteChart' },
  'POST /project/:project_id/chart/:id/chart-dataset-config': { id: 'createChartDatasetConfig', example: chartConfig },
  'PUT /project/:project_id/chart/:id/chart-dataset-config/:cdc_id': { id: 'updateChartDatasetConfig', example: { yAxisOperation: 'avg', formula: '€{val}', datasetColor: '#4E79A7' } },
  'DELETE /project/:project_id/chart/:id/chart-dataset-config/:cdc_id': { id: 'deleteChartDatasetConfig' },
  'POST /project/:id/share/policy': { id: 'createDashboardSharePolicy' },
  'GET /project/:id/share/policy': { id: 'listDashboardSharePolicies' },
  'PUT /project/:id/share/policy/:policy_id': { id: 'updateDashboardSharePolicy', example: policyUpdate },
  'DELETE /project/:id/share/policy/:policy_id': { id: 'deleteDashboardSharePolicy' },
  'POST /project/:id/share/policy/:policy_id/revoke': { id: 'revokeDashboardSharePolicy' },
  'POST /project/:project_id/chart/:id/share/policy': { id: 'createChartSharePolicy' },
  'GET /project/:project_id/chart/:id/share/policy': { id: 'listChartSharePolicies' },
  'PUT /project/:project_id/chart/:id/share/policy/:policy_id': { id: 'updateChartSharePolicy', example: policyUpdate },
  'DELETE /project/:project_id/chart/:id/share/policy/:policy_id': { id: 'deleteChartSharePolicy' },
  'POST /project/:project_id/chart/:id/share/policy/:policy_id/revoke': { id: 'revokeChartSharePolicy' },
  'POST /project/:id/share/token': { id: 'createDashboardShareToken', example: tokenBody },
  'POST /project/:project_id/chart/:id/share/token': { id: 'createChartShareToken', example: tokenBody },
  'GET /connection-providers': { id: 'listConnectionProviders' },
  'GET /team/:team_id/connections': { id: 'listConnections' },
  'POST /team/:team_id/connections': { id: 'createConnection', example: connection },
  'GET /team/:team_id/connections/:connection_id': { id: 'getConnection' },
  'PUT /team/:team_id/connections/:connection_id': { id: 'updateConnection', example: { name: 'Shop database (replica)', host: 'replica.example.com', password: MASK } },
  'DELETE /team/:team_id/connections/:connection_id': { id: 'deleteConnection' },
  'POST /team/:team_id/connections/:connection_id/files': { id: 'uploadConnectionFiles' },
  'GET /project/:project_id/chart/:id/export': { id: 'exportChart' },
  'GET /team/:team_id/datasets/:dataset_id/export': { id: 'exportDataset' },
};

/** `POST /team/:team_id/members` -> `postTeamByTeamIdMembers`: unique per method and path. */
function deriveOperationId(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by_${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

type JsonSchema = Record<string, unknown>;

/** A small valid value for a schema: required properties only, first enum value, minimal strings. */
function exampleFromSchema(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  const s = schema as JsonSchema;
  if ('examples' in s && Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  if ('default' in s) return s['default'];
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'][0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options)) {
      const pick = options.find((o) => (o as JsonSchema)?.['type'] === 'object') ?? options.find((o) => (o as JsonSchema)?.['type'] !== 'null') ?? options[0];
      return exampleFromSchema(pick, depth + 1);
    }
  }
  switch (s['type']) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (s['properties'] ?? {}) as Record<string, unknown>;
      for (const name of (s['required'] ?? []) as string[]) out[name] = exampleFromSchema(props[name], depth + 1);
      return out;
    }
    case 'array':
      return typeof s['minItems'] === 'number' && s['minItems'] > 0 ? [exampleFromSchema(s['items'], depth + 1)] : [];
    case 'string':
      return 'x'.repeat(Math.max(1, Number(s['minLength'] ?? 1)));
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

/** onRoute: fills `operationId` and the body example (the route's own values win). */
export function documentRoute(route: RouteOptions): void {
  const schema: FastifySchema & { operationId?: string; hide?: boolean } = (route.schema ??= {});
  if (schema.hide) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const method = methods[0]!;
  if (method === 'HEAD') return;
  const doc = OPERATIONS[`${method} ${route.url}`];
  schema.operationId ??= doc?.id ?? deriveOperationId(method, route.url);
  const body = schema.body as JsonSchema | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body['examples'])) {
    // A copy: body schemas are shared between routes, and each route shows its own example.
    schema.body = { ...body, examples: [doc?.example ?? exampleFromSchema(body)] };
  }
}
