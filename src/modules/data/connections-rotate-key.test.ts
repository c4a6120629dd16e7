import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../crypto/secrets.js';
import { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { now } from '../../store/columns.js';
import { createStore, migrateToLatest, type Store } from '../../store/index.js';
import { TeamsRepository } from '../identity/teams-repository.js';
import { ConnectionsRepository } from './connections-repository.js';
import { DatasetsRepository } from './datasets-repository.js';
import { ConnectionsService } from './connections-service.js';

const key = () => randomBytes(32);

function serviceWith(store: Store, box: SecretBox): ConnectionsService {
  return new ConnectionsService({ db: store.db, connections: new ConnectionsRepository(store.db), datasets: new DatasetsRepository(store.db), secrets: box, access: new AccessService(new TeamsRepository(store.db)) });
}

/** Every envelope of both tables, as stored. */
async function envelopes(store: Store): Promise<string[]> {
  const connections = await store.db.selectFrom('connections').select(['password', 'options', 'connectionString', 'authentication', 'firebaseServiceAccount', 'sslKey']).execute();
  const requests = await store.db.selectFrom('data_requests').select(['headers', 'body']).execute();
  const text = JSON.stringify([connections, requests]);
  return text.match(/v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]*/g) ?? [];
}

describe('rotateEncryptionKey', () => {
  let store: Store;
  let teamId: number;
  let actor: Actor;
  const oldKey = key();
  const previousKey = key();
  const newKey = key();
  const secret = {
    password: 'pw-1',
    token: 'tok-1',
    pass: 'basic-1',
    privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n',
    header: 'hdr-1',
    connectionString: 'postgres://u:cs-1@h/db',
    sslKey: 'ssl-key-1',
  };

  beforeEach(async () => {
    store = createStore({ kind: 'sqlite', file: ':memory:' });
    await migrateToLatest(store);
    const at = now();
    const user = await store.db
      .insertInto('users')
      .values({ name: 'Ada', email: 'ada@example.com', password_hash: 'x', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    teamId = (await new TeamsRepository(store.db).create({ name: 'T' }, user.id)).id;
    actor = { kind: 'user', userId: user.id, sessionId: 0 };
  });
  afterEach(() => store.close());

  async function seed(): Promise<{ full: number; older: number; request: number }> {
    const current = serviceWith(store, new SecretBox(oldKey, [previousKey]));
    const full = (
      await current.create(actor, teamId, {
        name: 'full',
        type: 'api',
        password: secret.password,
        options: [{ Authorization: secret.header }],
        connectionString: secret.connectionString,
        authentication: { type: 'basic_auth', user: 'u', pass: secret.pass, token: secret.token },
        firebaseServiceAccount: { private_key: secret.privateKey },
      })
    ).id;
    await current.attachFiles(actor, teamId, full, { sslKey: { filename: 'k.pem', content: secret.sslKey } });
    // A value still under a previous key, as after an earlier, unfinished rotation.
    const older = (await serviceWith(store, new SecretBox(previousKey)).create(actor, teamId, { name: 'older', type: 'postgres', password: 'pw-2' })).id;

    const box = new SecretBox(oldKey);
    const at = now();
    const dataset = await store.db.insertInto('datasets').values({ team_id: teamId, draft: false, createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    const request = await store.db
      .insertInto('data_requests')
      .values({
        dataset_id: dataset.id,
        connection_id: full,
        // Both layouts the data-request columns may use: per-value envelopes inside JSON, and a whole-column envelope.
        headers: JSON.stringify([{ key: 'Authorization', value: box.encrypt('Bearer dr-1') }, { key: 'Accept', value: 'application/json' }]),
        body: box.encrypt('{"secret":"dr-body"}'),
        useGlobalHeaders: true,
        pagination: false,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { full, older, request: request.id };
  }

  it('re-encrypts every envelope so that the new key alone reads them back', async () => {
    const ids = await seed();
    const result = await serviceWith(store, new SecretBox(oldKey, [previousKey])).rotateEncryptionKey(newKey);
    // 6 secret columns of the full connection, 1 of the older one, header and body of the data request.
    expect(result).toEqual({ reencrypted: 9, keyId: SecretBox.idOf(newKey) });

    const all = await envelopes(store);
    expect(all).toHaveLength(9);
    expect(new Set(all.map((e) => SecretBox.keyIdOf(e)))).toEqual(new Set([SecretBox.idOf(newKey)]));

    const onlyNew = new SecretBox(newKey);
    const fresh = serviceWith(store, onlyNew);
    expect(await fresh.getForRun(teamId, ids.full)).toMatchObject({
      password: secret.password,
      options: [{ Authorization: secret.header }],
      connectionString: secret.connectionString,
      authentication: { type: 'basic_auth', user: 'u', pass: secret.pass, token: secret.token },
      firebaseServiceAccount: { private_key: secret.privateKey },
      sslKey: secret.sslKey,
      sslKeyName: 'k.pem',
    });
    expect((await fresh.getForRun(teamId, ids.older)).password).toBe('pw-2');

    const row = await store.db.selectFrom('data_requests').select(['headers', 'body']).where('id', '=', ids.request).executeTakeFirstOrThrow();
    const headers = JSON.parse(row.headers!) as { key: string; value: string }[];
    expect(onlyNew.decrypt(headers[0]!.value)).toBe('Bearer dr-1');
    expect(headers[1]).toEqual({ key: 'Accept', value: 'application/json' });
    expect(onlyNew.decrypt(row.body!)).toBe('{"secret":"dr-body"}');

    // Nothing is left under an old key, so a second run has nothing to do.
    expect(await serviceWith(store, new SecretBox(newKey)).rotateEncryptionKey(newKey)).toEqual({ reencrypted: 0, keyId: SecretBox.idOf(newKey) });
  });

  it('changes nothing when one envelope cannot be decrypted', async () => {
    await seed();
    const before = await envelopes(store);
    // The previous key is not configured: the older connection cannot be read.
    const rotation = serviceWith(store, new SecretBox(oldKey)).rotateEncryptionKey(newKey);
    await expect(rotation).rejects.toThrow(/connections #\d+ password: .*unknown key/);
    expect(await envelopes(store)).toEqual(before);
  });
});
