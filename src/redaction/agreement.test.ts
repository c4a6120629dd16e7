import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../platform/logging.js';
import { redactSecrets } from '../sources/redact.js';
import { CONNECTION_SECRET_FIELDS, MASK, maskConnectionField, type ConnectionSecretField } from './index.js';

// The three places a connection's secret could leave the server (a response, a source error's
// message, a log line) must hide the same things. Each secret below is distinct so a leak names
// the field it came from.
const SECRETS: Record<ConnectionSecretField, { value: unknown; secrets: string[] }> = {
  password: { value: 'pw-7f3a9c', secrets: ['pw-7f3a9c'] },
  connectionString: { value: 'postgres://reader:cs-41d8e2@db.internal:5432/shop?password=cs-kw-93b1', secrets: ['cs-41d8e2', 'cs-kw-93b1'] },
  options: { value: [{ Authorization: 'Bearer opt-5e6f7a' }, { key: 'X-Api-Key', value: 'opt-kv-8c9d' }, { Accept: 'application/json' }], secrets: ['opt-5e6f7a', 'opt-kv-8c9d'] },
  authentication: { value: { type: 'bearer', user: 'svc-user', token: 'auth-tk-2b3c', pass: 'auth-ps-4d5e' }, secrets: ['auth-tk-2b3c', 'auth-ps-4d5e'] },
  firebaseServiceAccount: { value: { client_email: 'svc@project.iam', private_key_id: 'kid-1', private_key: '-----BEGIN PRIVATE KEY-----fb-6a7b8c' }, secrets: ['fb-6a7b8c'] },
  sslKey: { value: '-----BEGIN EC PRIVATE KEY-----ssl-9d0e1f', secrets: ['ssl-9d0e1f'] },
};
const VISIBLE = ['db.internal', 'reader', 'application/json', 'svc-user', 'svc@project.iam'];

function connectionWith(fields: readonly ConnectionSecretField[]): Record<string, unknown> {
  const conn: Record<string, unknown> = { id: 7, type: 'postgres', host: 'db.internal', username: 'reader' };
  for (const field of fields) conn[field] = SECRETS[field].value;
  return conn;
}

function responseOf(conn: Record<string, unknown>): string {
  const view: Record<string, unknown> = { ...conn };
  for (const field of CONNECTION_SECRET_FIELDS) if (field in conn) view[field] = maskConnectionField(field, conn[field]);
  return JSON.stringify(view);
}

function errorMessageOf(conn: Record<string, unknown>): string {
  // What a driver might echo: every value of the connection, nested ones as JSON.
  const echoed = Object.values(conn).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return redactSecrets(`connect failed for ${echoed.join(' | ')}`, { type: 'postgres', ...conn, firebaseServiceAccount: JSON.stringify(conn['firebaseServiceAccount'] ?? null) });
}

function logOf(conn: Record<string, unknown>): string {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const logger = pino(loggerOptions('info'), stream);
  logger.info({ connection: conn, nested: { attempt: { connection: conn } } }, 'connection event');
  return text;
}

const USES = { response: responseOf, 'source error': errorMessageOf, 'log line': logOf } as const;

describe('one rule for connection secrets', () => {
  for (const field of CONNECTION_SECRET_FIELDS) {
    it(`every use hides ${field}`, () => {
      const conn = connectionWith([field]);
      for (const [use, render] of Object.entries(USES)) {
        const text = render(conn);
        for (const secret of SECRETS[field].secrets) expect(text, `${use} leaks ${field}`).not.toContain(secret);
      }
    });
  }

  it('every use keeps what is not secret, so the three do not hide by accident', () => {
    const conn = connectionWith(CONNECTION_SECRET_FIELDS);
    for (const [use, render] of Object.entries(USES)) {
      const text = render(conn);
      for (const shown of VISIBLE) expect(text, `${use} hides ${shown}`).toContain(shown);
    }
  });

  it('responses and messages show the one mask', () => {
    const conn = connectionWith(CONNECTION_SECRET_FIELDS);
    expect(responseOf(conn)).toContain(MASK);
    expect(errorMessageOf(conn)).toContain(MASK);
  });
});
