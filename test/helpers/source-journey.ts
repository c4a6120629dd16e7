import { expect } from 'vitest';
import type { TestApp } from './app.js';

interface Reply {
  statusCode: number;
  body: string;
  json(): any;
}

/** Whatever sends requests to the app: an injected TestApp, or a listening server (browser tests). */
export interface JourneyClient {
  request(options: { method: string; url: string; token?: string; payload?: unknown }): Promise<Reply>;
  signup(): Promise<{ token: string; teamId: number }>;
}

/** A JourneyClient over a TestApp (app.inject). */
function injectedClient(t: TestApp): JourneyClient {
  return {
    request: ({ method, url, token, payload }) => t.request({ method: method as 'GET', url, ...(token ? { token } : {}), ...(payload !== undefined ? { payload: payload as object } : {}) }),
    signup: () => t.signup('Journey'),
  };
}

/*
 * One connection type's whole journey through the public HTTP API, as a user goes:
 * connection create -> connection test -> data request run -> dataset run -> chart query ->
 * share link -> public share view. Each step must answer 200; the caller checks the contents.
 */

export interface JourneyInput {
  connection: Record<string, unknown>;
  dataRequest: Record<string, unknown>;
  /** The chart (type, name, …) and its one dataset configuration (xAxis, yAxis, …). */
  chart: Record<string, unknown>;
  config: Record<string, unknown>;
}

export interface JourneyResult {
  connection: any;
  test: any;
  requestRun: any;
  datasetRun: any;
  chartData: any;
  shared: any;
  /** The embed page of the shared chart, with its token. */
  shareUrl: string;
  /** The owner's token, for further calls. */
  token: string;
  ids: { teamId: number; projectId: number; connectionId: number; datasetId: number; dataRequestId: number; chartId: number };
}

function ok(res: { statusCode: number; body: string; json(): any }, step: string): any {
  expect(res.statusCode, `${step}: ${res.body}`).toBe(200);
  return res.json();
}

export async function sourceJourney(target: TestApp | JourneyClient, input: JourneyInput): Promise<JourneyResult> {
  const client = 'app' in target ? injectedClient(target) : target;
  const owner = await client.signup();
  const token = owner.token;
  const teamId = owner.teamId;
  const call = (method: string, url: string, payload?: unknown) => client.request({ method, url, token, ...(payload !== undefined ? { payload } : {}) });

  const project = ok(await call('POST', '/project', { name: 'Journey', team_id: teamId, timezone: 'UTC' }), 'project');
  const connection = ok(await call('POST', `/team/${teamId}/connections`, { name: 'source', project_ids: [project.id], ...input.connection }), 'connection create');
  const test = ok(await call('GET', `/team/${teamId}/connections/${connection.id}/test`), 'connection test');
  const dataset = ok(
    await call('POST', `/team/${teamId}/datasets/quick-create`, {
      name: 'Journey data',
      project_ids: [project.id],
      dataRequests: [{ connection_id: connection.id, ...input.dataRequest }],
    }),
    'dataset create',
  );
  const dataRequestId = dataset.DataRequests[0].id as number;
  const requestRun = ok(await call('POST', `/team/${teamId}/datasets/${dataset.id}/dataRequests/${dataRequestId}/request`, {}), 'data request run');
  const datasetRun = ok(await call('GET', `/team/${teamId}/datasets/${dataset.id}/request`), 'dataset run');
  const chart = ok(
    await call('POST', `/project/${project.id}/chart/quick-create`, { ...input.chart, chartDatasetConfigs: [{ dataset_id: dataset.id, ...input.config }] }),
    'chart create',
  );
  const chartData = ok(await call('POST', `/project/${project.id}/chart/${chart.id}/query`), 'chart query').chartData;
  const policy = ok(await call('POST', `/project/${project.id}/chart/${chart.id}/share/policy`), 'share policy');
  const issued = ok(await call('POST', `/project/${project.id}/chart/${chart.id}/share/token`, { sharePolicyId: policy.id }), 'share token');
  const shareToken = issued.token as string;
  const shared = ok(await client.request({ method: 'GET', url: `/chart/share/${policy.share_string}?token=${encodeURIComponent(shareToken)}` }), 'share view');
  return {
    connection,
    test,
    requestRun,
    datasetRun,
    chartData,
    shared,
    shareUrl: issued.url as string,
    token,
    ids: { teamId, projectId: project.id, connectionId: connection.id, datasetId: dataset.id, dataRequestId, chartId: chart.id },
  };
}

/** Fails when any secret appears in a response body or a log line of the app. */
export function expectNoLeak(t: TestApp, secrets: readonly string[]): void {
  const bodies = t.bodies.join('\n');
  const logs = t.logs.text;
  for (const secret of secrets) {
    expect(bodies.includes(secret), `secret in a response: ${secret.slice(0, 24)}…`).toBe(false);
    expect(logs.includes(secret), `secret in the log: ${secret.slice(0, 24)}…`).toBe(false);
  }
}
