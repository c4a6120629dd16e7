import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertProject } from '../helpers/fixtures.js';
import { makeCertificates, startTlsProxy } from '../helpers/postgres-tls-proxy.js';

type Json = Record<string, unknown>;

let opensslMissing = '';
try {
  execFileSync('openssl', ['version'], { stdio: 'ignore' });
} catch {
  opensslMissing = 'the openssl command is not installed (it makes the test certificates)';
  process.stderr.write(`\n[tests] SKIPPED connection tests with SSL files over TLS: ${opensslMissing}\n`);
}

const BOUNDARY = '----WebKitFormBoundaryPlotlineTest';

/**
 * What Chartbrew's app sends to `POST /team/{id}/connections/{type}/test/files`: a FormData with
 * `connection` (JSON.stringify of the form's connection), then `sslCa`, `sslCert`, `sslKey`, each a
 * File, or the text `null` when its input was left empty.
 */
function appForm(connection: unknown, files: Partial<Record<'sslCa' | 'sslCert' | 'sslKey', string | null>> = {}, extra: string[] = []) {
  const text = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const file = (name: string, filename: string, content: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/x-x509-ca-cert\r\n\r\n${content}\r\n`;
  const parts = [text('connection', typeof connection === 'string' ? connection : JSON.stringify(connection))];
  for (const name of ['sslCa', 'sslCert', 'sslKey'] as const) {
    const content = files[name];
    parts.push(content ? file(name, `${name}.pem`, content) : text(name, 'null'));
  }
  return { payload: `${[...parts, ...extra].join('')}--${BOUNDARY}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

/** Every file name under `dir`: an upload must leave none behind. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe.each<StoreKind>(['sqlite', 'postgres'])('unsaved connection test with SSL files (%s store)', (store) => {
  let t: TestApp;
  let owner: { token: string; teamId: number; email: string };
  let projectId: number;
  let certDir: string | undefined;
  let certs: ReturnType<typeof makeCertificates> | undefined;
  let mtls: { server: Server; port: number } | undefined;
  const pg = new URL(inject('postgresUrl'));

  const url = () => `/team/${owner.teamId}/connections/postgres/test/files`;
  const send = (form: { payload: string; headers: Record<string, string> }, token = owner.token) => t.request({ method: 'POST', url: url(), token, ...form });
  const count = async () => (await t.request({ method: 'GET', url: `/team/${owner.teamId}/connections`, token: owner.token })).json<unknown[]>().length;
  /** The connection form of the app for a Postgres behind the TLS proxy, which asks for a client certificate. */
  const behindTls = (): Json => ({
    name: 'Behind TLS',
    type: 'postgres',
    subType: 'postgres',
    host: '127.0.0.1',
    port: String(mtls?.port ?? 1),
    dbName: 'postgres',
    username: decodeURIComponent(pg.username) || 'postgres',
    password: decodeURIComponent(pg.password) || 'unused',
    ssl: true,
    sslMode: 'verify-ca',
    connectionString: '',
    project_id: String(projectId),
    useSsh: false,
  });

  beforeAll(async () => {
    t = await buildTestApp({ store, env: { PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    owner = await t.signup('Owner');
    projectId = await insertProject(t, owner.teamId);
    if (!opensslMissing) {
      certDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-tls-'));
      certs = makeCertificates(certDir);
      mtls = await startTlsProxy({ host: pg.hostname, port: Number(pg.port || 5432) }, certs, true);
    }
  });
  afterAll(async () => {
    await t?.close();
    mtls?.server.close();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  it.skipIf(Boolean(opensslMissing))('tests with the uploaded CA, client certificate and key, and stores nothing', async () => {
    const before = await count();
    const dataDir = t.config.dataDir;
    const filesBefore = filesUnder(dataDir);
    const res = await send(appForm(behindTls(), { sslCa: certs!.ca, sslCert: certs!.clientCert, sslKey: certs!.clientKey }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await count()).toBe(before);
    const rows = JSON.stringify(await t.container.store.db.selectFrom('connections').selectAll().execute());
    expect(rows).not.toContain(certs!.ca.split('\n')[1]);
    expect(filesUnder(dataDir)).toEqual(filesBefore);
    expect(res.body).not.toContain('BEGIN');
  });

  it.skipIf(Boolean(opensslMissing))('answers as POST …/test answers when the files are missing or wrong', async () => {
    // The app without files: `null` text parts only, which are ignored.
    const withoutFiles = await send(appForm(behindTls()));
    const jsonTest = await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections/postgres/test`, token: owner.token, payload: behindTls() });
    expect(withoutFiles.statusCode).toBeGreaterThanOrEqual(400);
    expect(withoutFiles.statusCode).toBe(jsonTest.statusCode);
    expect(withoutFiles.json()).toEqual(jsonTest.json());

    // Another CA: the server's chain is refused. The right CA without a client certificate: the server refuses.
    const otherCa = await send(appForm(behindTls(), { sslCa: certs!.otherCa, sslCert: certs!.clientCert, sslKey: certs!.clientKey }));
    expect(otherCa.statusCode).toBeGreaterThanOrEqual(400);
    const noClientCert = await send(appForm(behindTls(), { sslCa: certs!.ca }));
    expect(noClientCert.statusCode).toBeGreaterThanOrEqual(400);
    expect(await count()).toBe(0);
  });

  it('checks the connection part as POST …/test checks its body, naming body.connection', async () => {
    const missing = await t.request({
      method: 'POST',
      url: url(),
      token: owner.token,
      payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="sslCa"\r\n\r\nnull\r\n--${BOUNDARY}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ path: 'body.connection', message: expect.stringContaining('is required') }]);

    const notJson = await send(appForm('{"name": "x",'));
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().details[0].path).toBe('body.connection');

    const numberPort = await send(appForm({ ...behindTls(), port: 5432 }));
    expect(numberPort.statusCode).toBe(400);
    expect(numberPort.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(numberPort.json().error).toContain('body.connection.port');

    const unknown = await send(appForm({ ...behindTls(), colour: 'blue' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('body.connection.colour');

    const ssh = await send(appForm({ ...behindTls(), useSsh: true }));
    expect(ssh.statusCode).toBe(400);
    expect(ssh.json().error).toContain('body.connection.useSsh');

    const twice = await send(appForm(behindTls(), {}, [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="connection"\r\n\r\n{}\r\n`]));
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toContain('body.connection');

    // The keys of a saved connection's answer are read-only and ignored, as on POST …/test.
    const answerKeys = await send(appForm({ ...behindTls(), host: '169.254.169.254', createdAt: '2024-01-01T00:00:00.000Z', updatedAt: null, team_id: 9, schema: null }));
    expect(answerKeys.statusCode).toBe(400);
    expect(answerKeys.json()).toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
  });

  it('refuses files it does not know, and files that are not PEM text', async () => {
    const ssh = await send(
      appForm(behindTls(), {}, [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="sshPrivateKey"; filename="id_rsa"\r\nContent-Type: application/octet-stream\r\n\r\nkey\r\n`]),
    );
    expect(ssh.statusCode).toBe(400);
    expect(ssh.json()).toMatchObject({ code: 'INVALID_FILE_FIELD' });
    const binary = await t.request({
      method: 'POST',
      url: url(),
      token: owner.token,
      payload: Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="connection"\r\n\r\n${JSON.stringify(behindTls())}\r\n`),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="sslCa"; filename="ca.der"\r\n\r\n`),
        Buffer.from([0x30, 0x82, 0xff, 0x00, 0xfe]),
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    expect(binary.statusCode).toBe(400);
    expect(binary.json()).toMatchObject({ code: 'INVALID_FILE' });
    const json = await t.request({ method: 'POST', url: url(), token: owner.token, payload: behindTls() });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'NO_FILES' });
  });

  it('only those who may write connections may test one, refused before the upload is read; the type must be known', async () => {
    const admin = await t.signup('Project admin');
    expect((await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: admin.email, role: 'projectAdmin', projects: [projectId] } })).statusCode).toBe(200);
    const forbidden = await send(appForm(behindTls()), admin.token);
    expect(forbidden.statusCode).toBe(403);
    // Not even a malformed body is read first.
    const malformed = await t.request({ method: 'POST', url: url(), token: admin.token, payload: '--x\r\n', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(malformed.statusCode).toBe(403);
    const stranger = await t.signup('Stranger');
    expect((await send(appForm(behindTls()), stranger.token)).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: url(), ...appForm(behindTls()) })).statusCode).toBe(401);

    const unknownType = await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections/oracle/test/files`, token: owner.token, ...appForm({ name: 'x', host: '127.0.0.1' }) });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().error).toContain('params.connection_id');
  });
});
