import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_SUBTYPES, CONNECTION_TYPES } from '../../src/sources/index.js';
import type { Role } from '../../src/platform/authorization.js';
import { now } from '../../src/store/columns.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { sharedUser } from '../helpers/fixtures.js';

const MASK = '********';

interface Person {
  token: string;
  userId: number;
  teamId: number;
  email: string;
}

type Json = Record<string, unknown>;

async function insertProject(t: TestApp, teamId: number, name = 'Dashboard'): Promise<number> {
  const at = now();
  const row = await t.container.store.db
    .insertInto('projects')
    .values({ team_id: teamId, name, brewName: `${name.toLowerCase()}-${randomBytes(4).toString('hex')}`, public: false, passwordProtected: false, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function addMember(t: TestApp, owner: Person, role: Role, projects: number[]): Promise<Person> {
  const person = await t.signup(role);
  const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: person.email, role, projects } });
  expect(res.statusCode, res.body).toBe(200);
  return person;
}

async function insertDataset(t: TestApp, teamId: number, connectionId: number | null, name: string): Promise<number> {
  const at = now();
  const row = await t.container.store.db
    .insertInto('datasets')
    .values({ team_id: teamId, connection_id: connectionId, name, draft: false, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertDataRequest(t: TestApp, datasetId: number, connectionId: number, extra: { headers?: string; body?: string } = {}): Promise<number> {
  const at = now();
  const row = await t.container.store.db
    .insertInto('data_requests')
    .values({ dataset_id: datasetId, connection_id: connectionId, useGlobalHeaders: true, pagination: false, ...extra, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

interface Part {
  name: string;
  filename?: string;
  content: string | Buffer;
}

function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----plotline${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename !== undefined;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file ? `; filename="${part.filename}"` : ''}\r\n` +
          `${file ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function pem(label: string, body: string): string {
  return `-----BEGIN ${label}-----\n${Buffer.from(body).toString('base64')}\n-----END ${label}-----\n`;
}

/** Every secret gets a unique random marker so that a leak anywhere can be searched for. */
function secrets() {
  const s = (name: string) => `${name}-${randomBytes(9).toString('hex')}`;
  return {
    password: s('dbpass'),
    csPassword: s('cspass'),
    token: s('apitoken'),
    basicPass: s('basicpass'),
    headerSecret: s('hdrsecret'),
    privateKey: pem('PRIVATE KEY', s('sa-private-key')),
    sslKey: pem('PRIVATE KEY', s('ssl-key')),
  };
}

function fullBody(projectId: number, x: ReturnType<typeof secrets>): Json {
  return {
    name: 'Warehouse',
    type: 'postgres',
    subType: 'timescaledb',
    team_id: 987654,
    project_ids: [projectId],
    oauth_id: randomUUID(),
    active: false,
    host: 'db.internal.example',
    dbName: 'analytics',
    port: '5433',
    username: 'reader',
    password: x.password,
    srv: true,
    options: [{ 'X-Api-Key': x.headerSecret }, { retryWrites: 'true' }, { key: 'Authorization', value: `Bearer ${x.token}` }],
    connectionString: `postgres://reader:${x.csPassword}@db.internal.example:5433/analytics?sslmode=require`,
    authentication: { type: 'basic_auth', user: 'bob', pass: x.basicPass, token: x.token },
    firebaseServiceAccount: { type: 'service_account', project_id: 'demo', private_key: x.privateKey, client_email: 'svc@demo.iam.example' },
    ssl: true,
    sslMode: 'verify-full',
    schema: [{ name: 'orders', type: 'table', fields: [{ name: 'id', type: 'integer' }] }],
  };
}

function expectedView(body: Json, teamId: number, projectId: number): Json {
  return {
    team_id: teamId,
    project_ids: [String(projectId)],
    oauth_id: body['oauth_id'],
    name: 'Warehouse',
    type: 'postgres',
    subType: 'timescaledb',
    active: false,
    host: 'db.internal.example',
    dbName: 'analytics',
    port: '5433',
    username: 'reader',
    password: MASK,
    srv: true,
    options: [{ 'X-Api-Key': MASK }, { retryWrites: 'true' }, { key: 'Authorization', value: MASK }],
    connectionString: `postgres://reader:${MASK}@db.internal.example:5433/analytics?sslmode=require`,
    authentication: { type: 'basic_auth', user: 'bob', pass: MASK, token: MASK },
    firebaseServiceAccount: { type: 'service_account', project_id: 'demo', private_key: MASK, client_email: 'svc@demo.iam.example' },
    ssl: true,
    sslMode: 'verify-full',
    sslCa: null,
    sslCert: null,
    sslKey: null,
    schema: body['schema'],
  };
}

describe.each<StoreKind>(['sqlite', 'postgres'])('connections round trip (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ store });
  });
  afterAll(() => t.close());

  it('round-trips every field, masks secrets, and keeps them when "********" is written back', async () => {
    const owner = await t.signup('Owner');
    const projectId = await insertProject(t, owner.teamId);
    const x = secrets();
    const body = fullBody(projectId, x);

    const created = await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections`, token: owner.token, payload: body });
    expect(created.statusCode, created.body).toBe(200);
    const view = created.json<Json & { id: number }>();
    expect(view).toMatchObject(expectedView(body, owner.teamId, projectId));
    expect(view.id).toBeTypeOf('number');
    expect(view['createdAt']).toMatch(/^\d{4}-\d\d-\d\dT/);

    const got = await t.request({ method: 'GET', url: `/team/${owner.teamId}/connections/${view.id}`, token: owner.token });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(view);

    const list = await t.request({ method: 'GET', url: `/team/${owner.teamId}/connections`, token: owner.token });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([view]);

    // The client sends back what it read, changing only the host and a project id given as a string.
    const echoed = { ...got.json<Json>(), host: 'db2.internal.example', project_ids: [String(projectId)] };
    const updated = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/connections/${view.id}`, token: owner.token, payload: echoed });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ ...expectedView(body, owner.teamId, projectId), host: 'db2.internal.example' });

    const run = await t.container.connections.getForRun(owner.teamId, view.id);
    expect(run).toMatchObject({
      host: 'db2.internal.example',
      port: '5433',
      password: x.password,
      connectionString: body['connectionString'],
      authentication: body['authentication'],
      firebaseServiceAccount: body['firebaseServiceAccount'],
      options: body['options'],
      project_ids: [projectId],
    });
  });
});

describe('connections', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.signup('Owner');
    projectId = await insertProject(t, owner.teamId);
  });
  afterAll(() => t.close());

  const create = (body: Json, who: Person = owner, teamId = who.teamId) =>
    t.request({ method: 'POST', url: `/team/${teamId}/connections`, token: who.token, payload: body });

  describe('validation', () => {
    it.each<[string, string, Json]>([
      ['name missing', 'body.name', { type: 'postgres' }],
      ['empty name', 'body.name', { name: '  ', type: 'postgres' }],
      ['type missing', 'body.type', { name: 'n' }],
      ['unknown type', 'body.type', { name: 'n', type: 'oracle' }],
      ['unknown subType', 'body.subType', { name: 'n', type: 'postgres', subType: 'cockroach' }],
      ['subType of another family', 'body.subType', { name: 'n', type: 'postgres', subType: 'rdsMysql' }],
      ['port of the wrong type', 'body.port', { name: 'n', type: 'postgres', port: true }],
      ['port not a number', 'body.port', { name: 'n', type: 'postgres', port: 'abc' }],
      ['port out of range (string)', 'body.port', { name: 'n', type: 'postgres', port: '70000' }],
      ['port out of range (number)', 'body.port', { name: 'n', type: 'postgres', port: 70000 }],
      ['bad sslMode', 'body.sslMode', { name: 'n', type: 'postgres', sslMode: 'sometimes' }],
      ['ssl not a boolean', 'body.ssl', { name: 'n', type: 'postgres', ssl: 'yes' }],
      ['srv not a boolean', 'body.srv', { name: 'n', type: 'mongodb', srv: 1 }],
      ['active not a boolean', 'body.active', { name: 'n', type: 'postgres', active: 'true' }],
      ['options a string', 'body.options', { name: 'n', type: 'api', options: 'x' }],
      ['schema a number', 'body.schema', { name: 'n', type: 'postgres', schema: 3 }],
      ['project id not numeric', 'body.project_ids.0', { name: 'n', type: 'postgres', project_ids: ['abc'] }],
      ['project_ids not an array', 'body.project_ids', { name: 'n', type: 'postgres', project_ids: 3 }],
      ['authentication.token a number', 'body.authentication.token', { name: 'n', type: 'api', authentication: { token: 5 } }],
      ['firebaseServiceAccount a string', 'body.firebaseServiceAccount', { name: 'n', type: 'firestore', firebaseServiceAccount: '{}' }],
      ['oauth_id not a UUID', 'body.oauth_id', { name: 'n', type: 'googleAnalytics', oauth_id: 'nope' }],
      ['host a number', 'body.host', { name: 'n', type: 'postgres', host: 5 }],
      ['placeholder password with nothing stored', 'body.password', { name: 'n', type: 'postgres', password: MASK }],
      ['placeholder header with nothing stored', 'body.options.0.Authorization', { name: 'n', type: 'api', options: [{ Authorization: MASK }] }],
    ])('%s -> 400 naming %s', async (_case, path, body) => {
      const res = await create(body);
      expect(res.statusCode, res.body).toBe(400);
      const error = res.json<{ error: string; code: string; details: { path: string }[] }>();
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.error).toContain(path);
      expect(error.details[0]?.path).toBe(path);
    });

    it('rejects a project of another team', async () => {
      const other = await sharedUser(t, 'Other');
      const foreign = await insertProject(t, other.teamId);
      const res = await create({ name: 'n', type: 'postgres', project_ids: [foreign] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.project_ids' }] });
    });

    it('rejects a non-integer path id', async () => {
      const res = await t.request({ method: 'GET', url: `/team/${owner.teamId}/connections/abc`, token: owner.token });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toContain('connection_id');
    });

    it('refuses port sent as a number with a 400 naming body.port (it is a string in and out)', async () => {
      const res = await create({ name: 'n', type: 'mysql', port: 3306, project_ids: [String(projectId)] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(res.body).toContain('body.port');
      const ok = await create({ name: 'n', type: 'mysql', port: '3306', project_ids: [String(projectId)] });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ port: '3306', project_ids: [String(projectId)] });
    });

    it('defaults subType to the type, ignores a body team_id, and defaults the flags', async () => {
      const res = await create({ name: 'n', type: 'mysql', team_id: 424242 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ type: 'mysql', subType: 'mysql', team_id: owner.teamId, active: true, ssl: false, srv: false, sslMode: 'require', project_ids: [] });
    });

    it('accepts a subType of the family and resets it when the type changes', async () => {
      const res = await create({ name: 'n', type: 'mysql', subType: 'rdsMysql' });
      expect(res.json()).toMatchObject({ type: 'mysql', subType: 'rdsMysql' });
      const id = res.json<{ id: number }>().id;
      const changed = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/connections/${id}`, token: owner.token, payload: { type: 'postgres' } });
      expect(changed.json()).toMatchObject({ type: 'postgres', subType: 'postgres' });
      const wrong = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/connections/${id}`, token: owner.token, payload: { subType: 'rdsMysql' } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ details: [{ path: 'body.subType' }] });
    });

    it('accepts options as an object, clears fields with null, and replaces secrets that are not the placeholder', async () => {
      const res = await create({ name: 'api', type: 'api', host: 'https://api.example', options: { Accept: 'application/json', 'x-auth-token': 'old-token-value' }, password: 'p1' });
      expect(res.json()).toMatchObject({ options: { Accept: 'application/json', 'x-auth-token': MASK } });
      const id = res.json<{ id: number }>().id;
      const put = await t.request({
        method: 'PUT',
        url: `/team/${owner.teamId}/connections/${id}`,
        token: owner.token,
        payload: { options: { 'x-auth-token': 'new-token-value', Accept: 'text/csv' }, password: null, host: null },
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({ options: { Accept: 'text/csv', 'x-auth-token': MASK }, password: null, host: null });
      const run = await t.container.connections.getForRun(owner.teamId, id);
      expect(run).toMatchObject({ options: { 'x-auth-token': 'new-token-value', Accept: 'text/csv' }, password: null, host: null });
    });

    it('a PUT of an unknown connection is a 404', async () => {
      const res = await t.request({ method: 'PUT', url: `/team/${owner.teamId}/connections/999999`, token: owner.token, payload: { name: 'x' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('files', () => {
    let id: number;
    beforeAll(async () => {
      id = (await create({ name: 'tls', type: 'postgres', ssl: true })).json<{ id: number }>().id;
    });
    const upload = (parts: Part[], who: Person = owner, connectionId = id, teamId = who.teamId) => {
      const { payload, headers } = multipart(parts);
      return t.request({ method: 'POST', url: `/team/${teamId}/connections/${connectionId}/files`, token: who.token, payload, headers });
    };

    it('stores each part and answers the file names, never the key', async () => {
      const key = pem('PRIVATE KEY', `key-${randomBytes(8).toString('hex')}`);
      const ca = pem('CERTIFICATE', 'ca');
      const cert = pem('CERTIFICATE', 'cert');
      const first = await upload([{ name: 'sslCa', filename: 'ca.pem', content: ca }]);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ id, sslCa: 'ca.pem', sslCert: null, sslKey: null });

      const rest = await upload([
        { name: 'note', content: 'ignored text field' },
        { name: 'sslCert', filename: 'C:\\certs\\client.crt', content: cert },
        { name: 'sslKey', filename: '../client.key', content: key },
      ]);
      expect(rest.statusCode, rest.body).toBe(200);
      expect(rest.json()).toMatchObject({ sslCa: 'ca.pem', sslCert: 'client.crt', sslKey: 'client.key' });
      expect(rest.body).not.toContain('PRIVATE KEY');

      const run = await t.container.connections.getForRun(owner.teamId, id);
      expect(run).toMatchObject({ sslCa: ca, sslCert: cert, sslKey: key, sslCaName: 'ca.pem', sslCertName: 'client.crt', sslKeyName: 'client.key' });
      const raw = await t.container.store.db.selectFrom('connections').select(['sslKey', 'sslCa']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(raw.sslCa).toBe(ca);
      expect(raw.sslKey).not.toContain('PRIVATE KEY');
    });

    it('400 {error, code} when no file part is present', async () => {
      for (const parts of [[], [{ name: 'note', content: 'text only' }], [{ name: 'sslCa', filename: '', content: '' }]] as Part[][]) {
        const res = await upload(parts);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({ error: expect.stringContaining('No files'), code: 'NO_FILES' });
      }
      const json = await t.request({ method: 'POST', url: `/team/${owner.teamId}/connections/${id}/files`, token: owner.token, payload: { sslCa: 'x' } });
      expect(json.statusCode).toBe(400);
      expect(json.json()).toMatchObject({ code: 'NO_FILES' });
    });

    it('400 for an unknown or repeated file field, and for binary content', async () => {
      const unknown = await upload([{ name: 'sshPrivateKey', filename: 'id_rsa', content: 'x' }]);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ code: 'INVALID_FILE_FIELD' });
      const twice = await upload([
        { name: 'sslCa', filename: 'a.pem', content: 'a' },
        { name: 'sslCa', filename: 'b.pem', content: 'b' },
      ]);
      expect(twice.statusCode).toBe(400);
      expect(twice.json()).toMatchObject({ code: 'INVALID_FILE_FIELD' });
      const binary = await upload([{ name: 'sslCa', filename: 'ca.der', content: Buffer.from([0x30, 0x82, 0xff, 0xfe, 0x00]) }]);
      expect(binary.statusCode).toBe(400);
      expect(binary.json()).toMatchObject({ code: 'INVALID_FILE' });
    });

    it('400 for a malformed multipart body', async () => {
      const url = `/team/${owner.teamId}/connections/${id}/files`;
      const truncated = '--zz\r\nContent-Disposition: form-data; name="sslCa"; filename="a.pem"\r\n\r\nabc';
      for (const [payload, type] of [
        [truncated, 'multipart/form-data; boundary=zz'],
        ['x', 'multipart/form-data'],
      ] as const) {
        const res = await t.request({ method: 'POST', url, token: owner.token, payload, headers: { 'content-type': type } });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_MULTIPART' });
      }
    });

    it('413 for a file over 1 MiB; exactly 1 MiB is accepted', async () => {
      const big = await upload([{ name: 'sslCa', filename: 'big.pem', content: Buffer.alloc(1024 * 1024 + 1, 'a') }]);
      expect(big.statusCode).toBe(413);
      expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      const limit = await upload([{ name: 'sslCert', filename: 'limit.pem', content: Buffer.alloc(1024 * 1024, 'a') }]);
      expect(limit.statusCode, limit.body).toBe(200);
    });

    it('404 for a connection of another team, 403 for a project role', async () => {
      const other = await sharedUser(t, 'Other');
      const res = await upload([{ name: 'sslCa', filename: 'ca.pem', content: 'x' }], other, id, other.teamId);
      expect(res.statusCode).toBe(404);
      const editor = await addMember(t, owner, 'projectEditor', [projectId]);
      const denied = await upload([{ name: 'sslCa', filename: 'ca.pem', content: 'x' }], editor, id, owner.teamId);
      expect(denied.statusCode).toBe(403);
    });
  });

  describe('providers', () => {
    it('lists every type and subType with its capabilities', async () => {
      const res = await t.request({ method: 'GET', url: '/connection-providers', token: owner.token });
      expect(res.statusCode).toBe(200);
      const providers = res.json<{ id: string; type: string; subType: string; name: string; category: string; description: string; capabilities: Json }[]>();
      expect(new Set(providers.map((p) => p.type))).toEqual(new Set(CONNECTION_TYPES));
      expect(new Set(providers.map((p) => p.subType))).toEqual(new Set(CONNECTION_SUBTYPES));
      for (const p of providers) {
        expect(p.id).toBe(p.subType);
        expect(p.name.length).toBeGreaterThan(0);
        expect(p.category.length).toBeGreaterThan(0);
        expect(p.description.length).toBeGreaterThan(0);
        expect(Object.keys(p.capabilities).sort()).toEqual(['pushdown', 'query', 'schema', 'streaming', 'test']);
      }
      expect(providers.find((p) => p.subType === 'rdsPostgres')).toMatchObject({ type: 'postgres' });
      expect(providers.find((p) => p.subType === 'rdsMysql')).toMatchObject({ type: 'mysql' });
    });

    it('needs a token', async () => {
      const res = await t.request({ method: 'GET', url: '/connection-providers' });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('roles', () => {
    let boss: Person;
    let project: number;
    let mine: number;
    let others: number;
    const people = {} as Record<Role | 'stranger' | 'otherTeam', Person>;
    const HIDDEN = ['host', 'port', 'username', 'dbName', 'password', 'connectionString', 'options', 'authentication', 'firebaseServiceAccount', 'sslCa', 'sslCert', 'sslKey'];

    beforeAll(async () => {
      boss = await t.signup('Boss');
      project = await insertProject(t, boss.teamId, 'Sales');
      const otherProject = await insertProject(t, boss.teamId, 'Ops');
      people.teamOwner = boss;
      people.teamAdmin = await addMember(t, boss, 'teamAdmin', []);
      for (const role of ['projectAdmin', 'projectEditor', 'projectViewer'] as const) people[role] = await addMember(t, boss, role, [project]);
      people.stranger = await t.signup('Stranger');
      people.otherTeam = await t.signup('Rival');
      const full = { type: 'postgres', host: 'secret-host.example', port: '5432', username: 'u', dbName: 'd', password: 'role-matrix-password' };
      mine = (await create({ ...full, name: 'Sales DB', project_ids: [project] }, boss)).json<{ id: number }>().id;
      others = (await create({ ...full, name: 'Ops DB', project_ids: [otherProject] }, boss)).json<{ id: number }>().id;
    });

    const url = (id?: number) => `/team/${boss.teamId}/connections${id === undefined ? '' : `/${id}`}`;

    it.each(['teamOwner', 'teamAdmin'] as const)('%s: full CRUD, secrets masked', async (role) => {
      const who = people[role];
      const list = await t.request({ method: 'GET', url: url(), token: who.token });
      expect(list.statusCode).toBe(200);
      expect(list.json<{ id: number }[]>().map((c) => c.id)).toEqual(expect.arrayContaining([mine, others]));
      const created = await create({ name: `by ${role}`, type: 'api', host: 'https://x.example' }, who, boss.teamId);
      expect(created.statusCode).toBe(200);
      const id = created.json<{ id: number }>().id;
      const got = await t.request({ method: 'GET', url: url(mine), token: who.token });
      expect(got.json()).toMatchObject({ host: 'secret-host.example', password: MASK });
      const put = await t.request({ method: 'PUT', url: url(id), token: who.token, payload: { name: 'renamed' } });
      expect(put.json()).toMatchObject({ name: 'renamed' });
      const del = await t.request({ method: 'DELETE', url: url(id), token: who.token });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ removed: true });
      const gone = await t.request({ method: 'GET', url: url(id), token: who.token });
      expect(gone.statusCode).toBe(404);
    });

    it.each(['projectAdmin', 'projectEditor'] as const)('%s: reads only connections of their projects, without credentials', async (role) => {
      const who = people[role];
      const list = await t.request({ method: 'GET', url: url(), token: who.token });
      expect(list.statusCode).toBe(200);
      const items = list.json<Json[]>();
      expect(items.map((c) => c['id'])).toEqual([mine]);
      const got = await t.request({ method: 'GET', url: url(mine), token: who.token });
      expect(got.statusCode).toBe(200);
      for (const view of [items[0]!, got.json<Json>()]) {
        expect(view).toMatchObject({ id: mine, name: 'Sales DB', type: 'postgres', project_ids: [String(project)] });
        for (const field of HIDDEN) expect(view, field).not.toHaveProperty(field);
      }
      expect(got.body).not.toContain('secret-host');
      const foreign = await t.request({ method: 'GET', url: url(others), token: who.token });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain('Ops DB');
      for (const request of [
        { method: 'POST' as const, url: url(), payload: { name: 'x', type: 'api' } },
        { method: 'PUT' as const, url: url(mine), payload: { name: 'x' } },
        { method: 'DELETE' as const, url: url(mine) },
      ]) {
        const res = await t.request({ ...request, token: who.token });
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    });

    it.each(['projectViewer', 'stranger'] as const)('%s: 403 everywhere, never data', async (role) => {
      const who = people[role];
      for (const request of [
        { method: 'GET' as const, url: url() },
        { method: 'GET' as const, url: url(mine) },
        { method: 'POST' as const, url: url(), payload: { name: 'x', type: 'api' } },
        { method: 'PUT' as const, url: url(mine), payload: { name: 'x' } },
        { method: 'DELETE' as const, url: url(mine) },
      ]) {
        const res = await t.request({ ...request, token: who.token });
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(403);
        expect(res.body).not.toContain('Sales DB');
      }
    });

    it('another team: its own path is a 404 for our ids, ours is a 403', async () => {
      const rival = people.otherTeam;
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.request({ method, url: `/team/${rival.teamId}/connections/${mine}`, token: rival.token, ...(method === 'PUT' ? { payload: { name: 'x' } } : {}) });
        expect(res.statusCode, method).toBe(404);
        expect(res.body).not.toContain('Sales DB');
      }
      const list = await t.request({ method: 'GET', url: `/team/${rival.teamId}/connections`, token: rival.token });
      expect(list.json()).toEqual([]);
      const ours = await t.request({ method: 'GET', url: url(mine), token: rival.token });
      expect(ours.statusCode).toBe(403);
      await expect(t.container.connections.getForRun(rival.teamId, mine)).rejects.toMatchObject({ statusCode: 404 });
      const asAdmin = (teamId: number) => ({ teamId, userId: null, role: 'teamAdmin' as const, projects: [] });
      expect(await t.container.connections.usableBy(asAdmin(rival.teamId), mine)).toBe(false);
      expect(await t.container.connections.usableBy(asAdmin(boss.teamId), mine)).toBe(true);
    });

    it('without a token: 401', async () => {
      const res = await t.request({ method: 'GET', url: url() });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('delete and its datasets', () => {
    const exists = async (table: 'datasets' | 'data_requests', id: number) =>
      (await t.container.store.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

    async function fixture() {
      const target = (await create({ name: 'target', type: 'postgres' })).json<{ id: number }>().id;
      const keep = (await create({ name: 'keep', type: 'postgres' })).json<{ id: number }>().id;
      const direct = await insertDataset(t, owner.teamId, target, 'direct');
      const mixed = await insertDataset(t, owner.teamId, keep, 'mixed');
      const unrelated = await insertDataset(t, owner.teamId, keep, 'unrelated');
      const directRequest = await insertDataRequest(t, direct, target);
      const mixedOnTarget = await insertDataRequest(t, mixed, target);
      const mixedOnKeep = await insertDataRequest(t, mixed, keep);
      await t.container.store.db.updateTable('datasets').set({ main_dr_id: mixedOnTarget }).where('id', '=', mixed).execute();
      return { target, keep, direct, mixed, unrelated, directRequest, mixedOnTarget, mixedOnKeep };
    }

    it('without removeDatasets keeps the datasets and removes their data requests on the connection', async () => {
      const f = await fixture();
      for (const query of ['', '?removeDatasets=false']) {
        const g = query === '' ? f : await fixture();
        const res = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/connections/${g.target}${query}`, token: owner.token });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ removed: true });
        expect(await exists('datasets', g.direct)).toBe(true);
        expect(await exists('datasets', g.mixed)).toBe(true);
        expect(await exists('datasets', g.unrelated)).toBe(true);
        expect(await exists('data_requests', g.directRequest)).toBe(false);
        expect(await exists('data_requests', g.mixedOnTarget)).toBe(false);
        expect(await exists('data_requests', g.mixedOnKeep)).toBe(true);
        const rows = await t.container.store.db.selectFrom('datasets').select(['id', 'connection_id', 'main_dr_id']).where('id', 'in', [g.direct, g.mixed]).orderBy('id').execute();
        expect(rows).toEqual([
          { id: g.direct, connection_id: null, main_dr_id: null },
          { id: g.mixed, connection_id: g.keep, main_dr_id: null },
        ]);
      }
    });

    it.each(['true', '1'])('removeDatasets=%s deletes the datasets that use it', async (value) => {
      const f = await fixture();
      const res = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/connections/${f.target}?removeDatasets=${value}`, token: owner.token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ removed: true });
      expect(await exists('datasets', f.direct)).toBe(false);
      expect(await exists('datasets', f.mixed)).toBe(false);
      expect(await exists('datasets', f.unrelated)).toBe(true);
      expect(await exists('data_requests', f.mixedOnKeep)).toBe(false);
      const again = await t.request({ method: 'GET', url: `/team/${owner.teamId}/connections/${f.target}`, token: owner.token });
      expect(again.statusCode).toBe(404);
    });

    it('removeDatasets accepts only true|false|1|0', async () => {
      const f = await fixture();
      const res = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/connections/${f.target}?removeDatasets=yes`, token: owner.token });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toContain('removeDatasets');
      expect(await exists('datasets', f.direct)).toBe(true);
    });

    it('tells listeners (pool owners) about updates and deletes', async () => {
      const seen: string[] = [];
      const stop = t.container.connections.onChange((change) => {
        seen.push(`${change.kind}:${change.connectionId}`);
      });
      const id = (await create({ name: 'watched', type: 'postgres' })).json<{ id: number }>().id;
      await t.request({ method: 'PUT', url: `/team/${owner.teamId}/connections/${id}`, token: owner.token, payload: { host: 'h' } });
      await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/connections/${id}`, token: owner.token });
      await new Promise((resolve) => setImmediate(resolve));
      stop();
      expect(seen).toEqual([`updated:${id}`, `deleted:${id}`]);
    });
  });
});

describe('connection secrets never leave the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The most verbose level, so that anything a route or plugin logs is searched too.
    t = await buildTestApp({ logLevel: 'trace' });
  });
  afterAll(() => t.close());

  it('keeps every secret out of responses, logs and plaintext columns', async () => {
    const owner = await t.signup('Owner');
    const projectId = await insertProject(t, owner.teamId);
    const editor = await addMember(t, owner, 'projectEditor', [projectId]);
    const x = secrets();
    const base = `/team/${owner.teamId}/connections`;
    const body = fullBody(projectId, x);

    const created = await t.request({ method: 'POST', url: base, token: owner.token, payload: body });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<{ id: number }>().id;
    const api = await t.request({
      method: 'POST',
      url: base,
      token: owner.token,
      payload: { name: 'API', type: 'api', host: 'https://api.example', options: { Authorization: `Bearer ${x.token}`, Cookie: `sid=${x.headerSecret}` }, authentication: { type: 'bearer_token', token: x.token } },
    });
    expect(api.statusCode).toBe(200);

    const { payload, headers } = multipart([{ name: 'sslKey', filename: 'client.key', content: x.sslKey }]);
    expect((await t.request({ method: 'POST', url: `${base}/${id}/files`, token: owner.token, payload, headers })).statusCode).toBe(200);

    await t.request({ method: 'GET', url: base, token: owner.token });
    const got = await t.request({ method: 'GET', url: `${base}/${id}`, token: owner.token });
    await t.request({ method: 'GET', url: base, token: editor.token });
    await t.request({ method: 'GET', url: `${base}/${id}`, token: editor.token });
    await t.request({ method: 'GET', url: '/connection-providers', token: owner.token });
    // Write-back of every placeholder, then invalid writes that carry secrets in their bodies.
    expect((await t.request({ method: 'PUT', url: `${base}/${id}`, token: owner.token, payload: got.json() })).statusCode).toBe(200);
    for (const bad of [
      { ...body, port: true },
      { ...body, sslMode: x.password },
      { ...body, type: x.token },
      { ...body, project_ids: [x.basicPass] },
      { ...body, options: x.headerSecret },
    ]) {
      const res = await t.request({ method: 'PUT', url: `${base}/${id}`, token: owner.token, payload: bad });
      expect(res.statusCode).toBe(400);
    }
    expect((await t.request({ method: 'PUT', url: `${base}/${id}`, token: editor.token, payload: body })).statusCode).toBe(403);

    const raw = await t.container.store.db.selectFrom('connections').selectAll().execute();
    const run = await t.container.connections.getForRun(owner.teamId, id);
    expect(run).toMatchObject({ password: x.password, sslKey: x.sslKey, authentication: { token: x.token, pass: x.basicPass } });
    expect((await t.request({ method: 'DELETE', url: `${base}/${id}`, token: owner.token })).statusCode).toBe(200);

    const bodies = t.bodies.join('\n');
    const logs = t.logs.text;
    const columns = JSON.stringify(raw);
    expect(logs.length).toBeGreaterThan(0);
    for (const [name, secret] of Object.entries(x)) {
      const needle = name === 'privateKey' || name === 'sslKey' ? secret.split('\n')[1]! : secret;
      expect(bodies.includes(needle), `${name} in a response body`).toBe(false);
      expect(logs.includes(needle), `${name} in the log`).toBe(false);
      expect(columns.includes(needle), `${name} in a stored column`).toBe(false);
    }
  });
});
