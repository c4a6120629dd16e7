import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertProject } from '../helpers/fixtures.js';

type Json = Record<string, unknown>;

/**
 * `POST /team/{tid}/connections/{type}/test` (a connection tested before it is saved) and the SSL
 * upload as Chartbrew's client sends them.
 */
describe.each<StoreKind>(['sqlite', 'postgres'])('unsaved connection test and SSL uploads (%s)', (store) => {
  let t: TestApp;
  let owner: { token: string; teamId: number; email: string };
  let projectId: number;
  let api: http.Server;
  let apiUrl: string;
  const token = `tok-${randomBytes(8).toString('hex')}`;
  const seen: (string | undefined)[] = [];
  const pg = new URL(inject('postgresUrl'));

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, as = owner.token) =>
    t.request({ method, url, token: as, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const count = async () => (await call('GET', `/team/${owner.teamId}/connections`)).json<unknown[]>().length;

  beforeAll(async () => {
    // An HTTP API that wants one bearer token, and says back what it was sent when it is wrong.
    api = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization === `Bearer ${token}`) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad token', got: req.headers.authorization ?? null }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    t = await buildTestApp({ store, env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    owner = await t.signup('Owner');
    projectId = await insertProject(t, owner.teamId);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => api?.close(resolve));
  });

  it("tests what Chartbrew's Postgres form sends, without storing anything", async () => {
    const before = await count();
    const res = await call('POST', `/team/${owner.teamId}/connections/postgres/test`, {
      type: 'postgres',
      subType: 'postgres',
      name: 'Local',
      host: pg.hostname,
      port: pg.port || '5432',
      dbName: 'postgres',
      username: decodeURIComponent(pg.username) || 'postgres',
      password: decodeURIComponent(pg.password) || 'unused',
      connectionString: '',
      project_id: String(projectId),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await count()).toBe(before);
  });

  it('fails as the saved test fails, with the same status and code', async () => {
    const body = { name: 'Closed', type: 'postgres', host: '127.0.0.1', port: '1', dbName: 'x', username: 'x', password: 'x' };
    const unsaved = await call('POST', `/team/${owner.teamId}/connections/postgres/test`, body);
    const saved = (await call('POST', `/team/${owner.teamId}/connections`, body)).json<{ id: number }>();
    const savedTest = await call('GET', `/team/${owner.teamId}/connections/${saved.id}/test`);
    expect(savedTest.statusCode).toBeGreaterThanOrEqual(400);
    expect(unsaved.statusCode).toBe(savedTest.statusCode);
    expect(unsaved.json()).toEqual(savedTest.json());
  });

  it('applies the address policy: metadata and private addresses are refused before any connection', async () => {
    for (const [type, host] of [
      ['api', 'http://169.254.169.254'],
      ['api', 'http://10.20.30.40'],
      ['postgres', '169.254.169.254'],
    ] as const) {
      const res = await call('POST', `/team/${owner.teamId}/connections/${type}/test`, { name: 'x', type, host, port: type === 'postgres' ? '5432' : '' });
      expect(res.statusCode, `${type} ${host}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    }
  });

  it('never echoes a secret, even when the source says it back', async () => {
    const wrong = `wrong-${randomBytes(8).toString('hex')}`;
    const res = await call('POST', `/team/${owner.teamId}/connections/api/test`, { name: 'API', type: 'api', host: apiUrl, authentication: { type: 'bearer_token', token: wrong } });
    expect(res.statusCode).toBe(400);
    expect(seen.at(-1)).toBe(`Bearer ${wrong}`);
    expect(res.body).not.toContain(wrong);
    const good = await call('POST', `/team/${owner.teamId}/connections/api/test`, { name: 'API', type: 'api', host: apiUrl, authentication: { type: 'bearer_token', token } });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.body).not.toContain(token);
  });

  it('an edited connection sent back with its id keeps the stored secrets it shows as "********"', async () => {
    const created = (await call('POST', `/team/${owner.teamId}/connections`, { name: 'API', type: 'api', host: apiUrl, authentication: { type: 'bearer_token', token } })).json<Json>();
    const answer = (await call('GET', `/team/${owner.teamId}/connections/${created['id']}`)).json<Json>();
    expect(answer['authentication']).toMatchObject({ token: '********' });
    const res = await call('POST', `/team/${owner.teamId}/connections/api/test`, answer);
    expect(res.statusCode, res.body).toBe(200);
    expect(seen.at(-1)).toBe(`Bearer ${token}`);

    // Without the id there is nothing to keep: a 400 naming the field, and nothing sent.
    const { id: _id, ...unsaved } = answer;
    const sent = seen.length;
    const orphan = await call('POST', `/team/${owner.teamId}/connections/api/test`, unsaved);
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().error).toContain('body.authentication.token');
    expect(seen.length).toBe(sent);

    // Another team's connection id is not found.
    const other = await t.signup('Other');
    const foreign = await call('POST', `/team/${other.teamId}/connections/api/test`, answer, other.token);
    expect(foreign.statusCode).toBe(404);
  });

  it('only those who may write connections may test one; the type must be known', async () => {
    const viewer = await t.signup('Admin of a project');
    expect((await call('POST', `/team/${owner.teamId}/members`, { email: viewer.email, role: 'projectAdmin', projects: [projectId] })).statusCode).toBe(200);
    const res = await call('POST', `/team/${owner.teamId}/connections/postgres/test`, { name: 'x', type: 'postgres', host: '127.0.0.1' }, viewer.token);
    expect(res.statusCode).toBe(403);
    const unknown = await call('POST', `/team/${owner.teamId}/connections/oracle/test`, { name: 'x', host: '127.0.0.1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('params.connection_id');
  });

  describe('SSL upload with empty inputs', () => {
    const boundary = '----WebKitFormBoundaryPlotline7';
    /** What a browser's FormData sends for `{sslCa: File | null, sslCert: null, sslKey: null}`. */
    function form(parts: { name: string; file?: { filename: string; content: string } }[]) {
      const chunks = parts.map((p) =>
        p.file
          ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.file.filename}"\r\nContent-Type: application/x-x509-ca-cert\r\n\r\n${p.file.content}\r\n`
          : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\nnull\r\n`,
      );
      return { payload: `${chunks.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    }
    const pem = '-----BEGIN CERTIFICATE-----\nTUlJQ2Zha2U=\n-----END CERTIFICATE-----\n';

    it('ignores sslCa=null beside a file, and answers the connection as it is when only such parts come', async () => {
      const created = (await call('POST', `/team/${owner.teamId}/connections`, { name: 'TLS', type: 'postgres', host: 'db.example.com', ssl: true })).json<Json>();
      const url = `/team/${owner.teamId}/connections/${created['id']}/files`;

      const withFile = await t.request({ method: 'POST', url, token: owner.token, ...form([{ name: 'sslCa', file: { filename: 'ca.pem', content: pem } }, { name: 'sslCert' }, { name: 'sslKey' }]) });
      expect(withFile.statusCode, withFile.body).toBe(200);
      expect(withFile.json()).toMatchObject({ sslCa: 'ca.pem', sslCert: null, sslKey: null });

      const onlyNulls = await t.request({ method: 'POST', url, token: owner.token, ...form([{ name: 'sslCa' }, { name: 'sslCert' }, { name: 'sslKey' }]) });
      expect(onlyNulls.statusCode, onlyNulls.body).toBe(200);
      expect(onlyNulls.json()).toMatchObject({ id: created['id'], sslCa: 'ca.pem', sslCert: null });

      // A body with no part at all is still the 400 of the contract.
      const empty = await t.request({ method: 'POST', url, token: owner.token, payload: `--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ code: 'NO_FILES' });
    });
  });
});
