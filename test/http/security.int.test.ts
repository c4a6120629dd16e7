import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { insertProject, type Person } from '../helpers/fixtures.js';

/** A snapshot of the tables a refused write could touch, to prove nothing changed. */
async function snapshot(t: TestApp) {
  const db = t.container.store.db;
  return {
    datasets: await db.selectFrom('datasets').select(['id', 'connection_id', 'project_ids', 'version']).orderBy('id').execute(),
    requests: await db.selectFrom('data_requests').select(['id', 'connection_id', 'dataset_id']).orderBy('id').execute(),
    configs: await db.selectFrom('chart_dataset_configs').select(['id', 'dataset_id']).orderBy('id').execute(),
    projects: await db.selectFrom('projects').select(['id', 'public', 'passwordProtected', 'password_hash']).orderBy('id').execute(),
  };
}

describe('project boundaries on every foreign id in a body', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let editor: Person;
  let mine: number;
  let theirs: number;
  let theirConnection: number;
  let myConnection: number;
  let theirDataset: number;
  let myDataset: number;
  let myRequest: number;
  let myChart: number;
  let myConfig: string;

  const team = (path: string) => `/team/${owner.teamId}${path}`;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    mine = await insertProject(t, owner.teamId, 'Mine');
    theirs = await insertProject(t, owner.teamId, 'Theirs');
    admin = await t.signup('ProjectAdmin');
    editor = await t.signup('ProjectEditor');
    for (const [person, role] of [[admin, 'projectAdmin'], [editor, 'projectEditor']] as const) {
      const res = await t.request({ method: 'POST', url: team('/members'), token: owner.token, payload: { email: person.email, role, projects: [mine] } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const pg = new URL(inject('postgresUrl'));
    const connection = (projectIds: number[]) =>
      t.request({ method: 'POST', url: team('/connections'), token: owner.token, payload: { name: 'db', type: 'postgres', host: pg.hostname, port: pg.port || '5432', dbName: 'postgres', username: 'postgres', project_ids: projectIds } });
    theirConnection = (await connection([theirs])).json().id;
    myConnection = (await connection([mine])).json().id;
    const dataset = (projectIds: number[], connectionId: number) =>
      t.request({ method: 'POST', url: team('/datasets/quick-create'), token: owner.token, payload: { name: 'd', project_ids: projectIds, dataRequests: [{ connection_id: connectionId, query: 'select 1 as x' }] } });
    theirDataset = (await dataset([theirs], theirConnection)).json().id;
    const own = (await dataset([mine], myConnection)).json();
    myDataset = own.id;
    myRequest = own.DataRequests[0].id;
    const chart = await t.request({
      method: 'POST',
      url: `/project/${mine}/chart/quick-create`,
      token: owner.token,
      payload: { name: 'c', type: 'line', chartDatasetConfigs: [{ dataset_id: myDataset }] },
    });
    expect(chart.statusCode, chart.body).toBe(200);
    myChart = chart.json().id;
    myConfig = chart.json().ChartDatasetConfigs[0].id;
  });
  afterAll(() => t.close());

  it("a projectAdmin cannot reach another project's connection or dataset through any body, and nothing changes", async () => {
    const before = await snapshot(t);
    const attempts: Array<[string, () => Promise<{ statusCode: number; body: string }>]> = [
      ['dataset create connection_id', () => t.request({ method: 'POST', url: team('/datasets'), token: admin.token, payload: { name: 'x', connection_id: theirConnection } })],
      ['dataset update connection_id', () => t.request({ method: 'PUT', url: team(`/datasets/${myDataset}`), token: admin.token, payload: { connection_id: theirConnection } })],
      ['dataset project_ids', () => t.request({ method: 'PUT', url: team(`/datasets/${myDataset}`), token: admin.token, payload: { project_ids: [theirs] } })],
      ['dataset create project_ids', () => t.request({ method: 'POST', url: team('/datasets'), token: admin.token, payload: { name: 'x', project_ids: [theirs] } })],
      [
        'quick-create request connection_id',
        () => t.request({ method: 'POST', url: team('/datasets/quick-create'), token: admin.token, payload: { name: 'x', dataRequests: [{ connection_id: theirConnection, query: 'select 1' }] } }),
      ],
      ['data request create connection_id', () => t.request({ method: 'POST', url: team(`/datasets/${myDataset}/dataRequests`), token: admin.token, payload: { connection_id: theirConnection, query: 'select 1' } })],
      ['data request update connection_id', () => t.request({ method: 'PUT', url: team(`/datasets/${myDataset}/dataRequests/${myRequest}`), token: admin.token, payload: { connection_id: theirConnection } })],
      ['chart dataset config create', () => t.request({ method: 'POST', url: `/project/${mine}/chart/${myChart}/chart-dataset-config`, token: admin.token, payload: { dataset_id: theirDataset } })],
      ['chart dataset config update', () => t.request({ method: 'PUT', url: `/project/${mine}/chart/${myChart}/chart-dataset-config/${myConfig}`, token: admin.token, payload: { dataset_id: theirDataset } })],
      [
        'chart quick-create config',
        () => t.request({ method: 'POST', url: `/project/${mine}/chart/quick-create`, token: admin.token, payload: { name: 'x', type: 'line', chartDatasetConfigs: [{ dataset_id: theirDataset }] } }),
      ],
    ];
    for (const [name, attempt] of attempts) {
      const res = await attempt();
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.body, name).not.toContain('"host"');
    }
    expect(await snapshot(t)).toEqual(before);
    // The same bodies with the caller's own ids work.
    const ok = await t.request({ method: 'POST', url: team(`/datasets/${myDataset}/dataRequests`), token: admin.token, payload: { connection_id: myConnection, query: 'select 2' } });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a projectEditor cannot publish a dashboard or change its password; a projectAdmin can', async () => {
    const before = await snapshot(t);
    for (const payload of [{ public: true }, { passwordProtected: true, password: 'a long password' }, { password: 'a long password' }]) {
      const res = await t.request({ method: 'PUT', url: `/project/${mine}`, token: editor.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
    }
    expect(await snapshot(t)).toEqual(before);
    // Other fields stay editable by an editor, and sending the current value is not a change.
    const rename = await t.request({ method: 'PUT', url: `/project/${mine}`, token: editor.token, payload: { name: 'Renamed', public: false } });
    expect(rename.statusCode, rename.body).toBe(200);
    const publish = await t.request({ method: 'PUT', url: `/project/${mine}`, token: admin.token, payload: { public: true } });
    expect(publish.statusCode, publish.body).toBe(200);
    expect(publish.json().public).toBe(true);
  });
});

describe('what a connection may reach', () => {
  let t: TestApp;
  let owner: Person;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Net');
  });
  afterAll(() => t.close());

  const testConnection = async (payload: Record<string, unknown>) => {
    const created = await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections`, token: owner.token, payload: { name: 'n', ...payload } });
    expect(created.statusCode, created.body).toBe(200);
    return t.request({ method: 'GET', url: `/team/${owner.teamId}/connections/${created.json().id}/test`, token: owner.token });
  };

  it('refuses cloud metadata and link-local addresses for every database type (SQL connections ignored the policy)', async () => {
    for (const payload of [
      { type: 'postgres', host: '169.254.169.254', port: '5432' },
      { type: 'mysql', host: '169.254.169.254', port: '3306' },
      { type: 'postgres', host: 'metadata.google.internal', port: '5432' },
      { type: 'postgres', connectionString: 'postgres://u:p@169.254.170.2:5432/db' },
      { type: 'mysql', host: '[fd00:ec2::254]', port: '3306' },
      { type: 'mongodb', connectionString: 'mongodb://10.0.0.1:27017,169.254.169.254:27017/db' },
      { type: 'postgres', host: '169.254.1.1', port: '5432' },
    ]) {
      const res = await testConnection(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code, JSON.stringify(payload)).toBe('TARGET_NOT_ALLOWED');
    }
  });

  it('answers the same text for a closed port and a port that never answers', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    // A listener that accepts and never speaks: like a filtered port, the driver times out.
    const silent: Server = createServer();
    silent.on('connection', () => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const texts: string[] = [];
      for (const [type, port] of [['mysql', closed], ['mysql', silentPort]] as const) {
        const res = await testConnection({ type, host: '127.0.0.1', port: String(port), connectionString: null });
        expect(res.statusCode).toBeGreaterThanOrEqual(500);
        texts.push(res.json().error.replace(String(port), 'PORT'));
      }
      expect(texts[0]).toBe(texts[1]);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 60_000);
});

describe('a saved query cannot stall the server', () => {
  let t: TestApp;
  let owner: Person;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Redos');
  });
  afterAll(() => t.close());

  it('saves and runs 100 KB of adversarial placeholder text in well under a second of work, and caps query length with a 400', async () => {
    const pg = new URL(inject('postgresUrl'));
    const conn = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/connections`,
      token: owner.token,
      payload: { name: 'db', type: 'postgres', host: pg.hostname, port: pg.port || '5432', dbName: 'postgres', username: 'postgres' },
    });
    const query = `select 1 -- {{${' '.repeat(100_000)}\nwhere '{{${' '.repeat(1000)}' = ''`;
    const ds = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/quick-create`, token: owner.token, payload: { name: 'r', dataRequests: [{ connection_id: conn.json().id, query }] } });
    expect(ds.statusCode, ds.body).toBe(200);
    const started = performance.now();
    const run = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${ds.json().id}/request`, token: owner.token });
    // The old scanner needed hours here; the bound only has to leave room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.statusCode).toBeLessThan(500);
    const tooLong = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/quick-create`, token: owner.token, payload: { name: 'r', dataRequests: [{ connection_id: conn.json().id, query: 'x'.repeat(300_000) }] } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().details[0].path).toContain('query');
  });
});

describe('a paged HTTP source cut by its page cap says so', () => {
  let t: TestApp;
  let owner: Person;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const at = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ n: at }], meta: { next_cursor: String(at + 1) } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    t = await buildTestApp({ env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1/32' } });
    owner = await t.signup('Pager');
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it('an endless cursor stops at the page cap and the dataset run and data request run answer truncated: true', async () => {
    const conn = await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections`, token: owner.token, payload: { name: 'api', type: 'api', host: `http://127.0.0.1:${port}` } });
    expect(conn.statusCode, conn.body).toBe(200);
    const ds = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/datasets/quick-create`,
      token: owner.token,
      payload: { name: 'paged', dataRequests: [{ connection_id: conn.json().id, route: '/items', pagination: true, template: 'cursor', items: 'meta.next_cursor', offset: 'cursor' }] },
    });
    expect(ds.statusCode, ds.body).toBe(200);
    const run = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${ds.json().id}/request`, token: owner.token });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().meta.truncated).toBe(true);
    const one = await t.request({ method: 'POST', url: `/team/${owner.teamId}/datasets/${ds.json().id}/dataRequests/${ds.json().DataRequests[0].id}/request`, token: owner.token, payload: {} });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().dataRequest.meta.truncated).toBe(true);
  });
});
