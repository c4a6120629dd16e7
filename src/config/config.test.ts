import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, looksRandom } from './index.js';
import { isSecret, Variables } from './variables.js';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'plotline-config-'));

describe('config', () => {
  it('defaults to the embedded store on 127.0.0.1:4019 and generates keys once, mode 0600', () => {
    const dir = tmp();
    const first = loadConfig({ PLOTLINE_DATA_DIR: dir });
    expect(first).toMatchObject({ port: 4019, host: '127.0.0.1', signup: 'open', baseUrl: 'http://localhost:4019', appUrl: 'http://localhost:4019' });
    expect(first.database).toEqual({ kind: 'sqlite', file: path.join(dir, 'plotline.db') });
    expect(first.notices).toHaveLength(2);
    for (const file of ['encryption.key', 'share.key']) {
      expect(statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
    }
    const second = loadConfig({ PLOTLINE_DATA_DIR: dir });
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(second.shareSecret.equals(first.shareSecret)).toBe(true);
    expect(second.notices).toEqual([]);
    expect(first.encryptionKey.equals(first.shareSecret)).toBe(false);
    expect(readFileSync(path.join(dir, 'encryption.key'), 'utf8').trim()).toBe(first.encryptionKey.toString('hex'));
  });

  it('is frozen', () => {
    const config = loadConfig({ PLOTLINE_DATA_DIR: tmp() });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('requires both keys with Postgres', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x', PLOTLINE_SHARE_SECRET: KEY_B })).toThrow(/PLOTLINE_ENCRYPTION_KEY: is required/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x', PLOTLINE_ENCRYPTION_KEY: KEY_A })).toThrow(/PLOTLINE_SHARE_SECRET: is required/);
    const ok = loadConfig({ DATABASE_URL: 'postgres://localhost/x', PLOTLINE_ENCRYPTION_KEY: KEY_A, PLOTLINE_SHARE_SECRET: KEY_B, PLOTLINE_DATA_DIR: tmp() });
    expect(ok.database).toEqual({ kind: 'postgres', url: 'postgres://localhost/x' });
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['PLOTLINE_ENCRYPTION_KEY', { PLOTLINE_ENCRYPTION_KEY: 'short' }],
    ['PLOTLINE_SHARE_SECRET', { PLOTLINE_SHARE_SECRET: 'zz'.repeat(32) }],
    ['PLOTLINE_SHARE_SECRET', { PLOTLINE_ENCRYPTION_KEY: KEY_A, PLOTLINE_SHARE_SECRET: KEY_A }],
    ['BASE_URL', { BASE_URL: 'not a url' }],
    ['APP_URL', { APP_URL: 'ftp://example.com' }],
    ['REDIS_URL', { REDIS_URL: 'http://localhost:6379' }],
    ['PLOTLINE_SIGNUP', { PLOTLINE_SIGNUP: 'maybe' }],
    ['PLOTLINE_ALLOW_PRIVATE_HOSTS', { PLOTLINE_ALLOW_PRIVATE_HOSTS: '10.0.0.0/99' }],
    ['PLOTLINE_ALLOW_PRIVATE_HOSTS', { PLOTLINE_ALLOW_PRIVATE_HOSTS: 'bad host!' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['PLOTLINE_RATE_LIMIT', { PLOTLINE_RATE_LIMIT: '0' }],
    ['PLOTLINE_RATE_LIMIT_AUTHENTICATED', { PLOTLINE_RATE_LIMIT_AUTHENTICATED: 'lots' }],
    ['PLOTLINE_SHARE_PASSWORD_ATTEMPTS', { PLOTLINE_SHARE_PASSWORD_ATTEMPTS: '0' }],
    ['PLOTLINE_CHART_ROW_LIMIT', { PLOTLINE_CHART_ROW_LIMIT: '-1' }],
    ['PLOTLINE_SOURCE_POOL_SIZE', { PLOTLINE_SOURCE_POOL_SIZE: '0' }],
    ['PLOTLINE_SOURCE_QUEUE_LIMIT', { PLOTLINE_SOURCE_QUEUE_LIMIT: 'x' }],
    ['PLOTLINE_SOURCE_WAIT_TIMEOUT_MS', { PLOTLINE_SOURCE_WAIT_TIMEOUT_MS: '0' }],
    ['PLOTLINE_CACHE_MAX_MB', { PLOTLINE_CACHE_MAX_MB: '0' }],
    ['PLOTLINE_RESULT_MAX_MB', { PLOTLINE_RESULT_MAX_MB: '0' }],
    ['PLOTLINE_RESULT_MAX_MB', { PLOTLINE_RESULT_MAX_MB: '1.5' }],
    ['PLOTLINE_SHUTDOWN_TIMEOUT_MS', { PLOTLINE_SHUTDOWN_TIMEOUT_MS: '1.5' }],
    ['PLOTLINE_GOOGLE_TOKEN_URL', { PLOTLINE_GOOGLE_TOKEN_URL: 'not a url' }],
    ['PLOTLINE_FIRESTORE_URL', { PLOTLINE_FIRESTORE_URL: 'ftp://firestore.example.com' }],
    ['PLOTLINE_GA_DATA_URL', { PLOTLINE_GA_DATA_URL: 'analyticsdata' }],
    ['PLOTLINE_GA_ADMIN_URL', { PLOTLINE_GA_ADMIN_URL: 'file:///etc/passwd' }],
    ['PLOTLINE_CUSTOMERIO_URL', { PLOTLINE_CUSTOMERIO_URL: 'api.customer.io' }],
    ['PLOTLINE_SCHEDULER', { PLOTLINE_SCHEDULER: 'sometimes' }],
    ['PLOTLINE_REFRESH_CONCURRENCY', { PLOTLINE_REFRESH_CONCURRENCY: '0' }],
    ['PLOTLINE_RUN_HISTORY_DAYS', { PLOTLINE_RUN_HISTORY_DAYS: 'forever' }],
    ['PLOTLINE_SMTP_URL', { PLOTLINE_SMTP_URL: 'http://mail.example.com' }],
    ['PLOTLINE_SMTP_FROM', { PLOTLINE_SMTP_FROM: 'nobody' }],
    // A lease not clearly longer than the one-minute heartbeat would take live deliveries over.
    ['PLOTLINE_DELIVERY_LEASE_MS', { PLOTLINE_DELIVERY_LEASE_MS: '60000' }],
  ];
  for (const [variable, env] of bad) {
    it(`a bad ${variable} stops boot with a message naming it (${JSON.stringify(env)})`, () => {
      let error: unknown;
      try {
        loadConfig({ PLOTLINE_DATA_DIR: tmp(), ...env });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as Error).message.startsWith(variable)).toBe(true);
    });
  }

  it('an unwritable data dir is one ConfigError naming it', () => {
    const file = path.join(tmp(), 'a-file');
    writeFileSync(file, '');
    expect(() => loadConfig({ PLOTLINE_DATA_DIR: path.join(file, 'data') })).toThrowError(
      expect.objectContaining({ variable: 'PLOTLINE_DATA_DIR', message: expect.stringContaining(path.join(file, 'data')) }),
    );
  });

  it('provider endpoints default to the public APIs and can be pointed elsewhere', () => {
    const defaults = loadConfig({ PLOTLINE_DATA_DIR: tmp() }).sourceEndpoints;
    expect(defaults).toEqual({
      googleTokenUrl: 'https://oauth2.googleapis.com/token',
      firestoreUrl: 'https://firestore.googleapis.com',
      gaDataUrl: 'https://analyticsdata.googleapis.com',
      gaAdminUrl: 'https://analyticsadmin.googleapis.com',
      customerioUrl: undefined,
    });
    const custom = loadConfig({ PLOTLINE_DATA_DIR: tmp(), PLOTLINE_GOOGLE_TOKEN_URL: 'http://127.0.0.1:9/token', PLOTLINE_CUSTOMERIO_URL: 'https://cio.internal/' }).sourceEndpoints;
    expect(custom.googleTokenUrl).toBe('http://127.0.0.1:9/token');
    expect(custom.customerioUrl).toBe('https://cio.internal');
  });

  it('parses the private-host allow-list', () => {
    const config = loadConfig({ PLOTLINE_DATA_DIR: tmp(), PLOTLINE_ALLOW_PRIVATE_HOSTS: '10.0.0.0/8, 127.0.0.1, ::1/128, DB.internal' });
    expect(config.allowPrivateHosts).toEqual(['10.0.0.0/8', '127.0.0.1', '::1/128', 'db.internal']);
  });

  it('refuses hand-made keys (repeated, patterned or sequential), and accepts random ones', () => {
    const trivial = [
      '0'.repeat(64),
      'a'.repeat(64),
      '0123456789abcdef'.repeat(4),
      'deadbeef'.repeat(8),
      Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('hex'),
      Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 7) % 256)).toString('hex'),
    ];
    for (const key of trivial) {
      expect(() => loadConfig({ PLOTLINE_DATA_DIR: tmp(), PLOTLINE_ENCRYPTION_KEY: key }), key).toThrow(/PLOTLINE_ENCRYPTION_KEY: looks hand-made/);
      expect(() => loadConfig({ PLOTLINE_DATA_DIR: tmp(), PLOTLINE_SHARE_SECRET: key }), key).toThrow(/PLOTLINE_SHARE_SECRET: looks hand-made/);
    }
    for (let i = 0; i < 2000; i++) expect(looksRandom(randomBytes(32))).toBe(true);
  });

  it('takes an optional /metrics token, refusing a short or patterned one', () => {
    expect(loadConfig({ PLOTLINE_DATA_DIR: tmp() }).metricsToken).toBeUndefined();
    expect(loadConfig({ PLOTLINE_DATA_DIR: tmp(), PLOTLINE_METRICS_TOKEN: 'k3y-for-scrapers-91' }).metricsToken).toBe('k3y-for-scrapers-91');
    for (const bad of ['short', 'x'.repeat(40), 'has a space in it 12345']) {
      expect(() => loadConfig({ PLOTLINE_DATA_DIR: tmp(), PLOTLINE_METRICS_TOKEN: bad })).toThrow(/PLOTLINE_METRICS_TOKEN/);
    }
  });

  describe('secrets from files (<NAME>_FILE)', () => {
    const secretFile = (content: string) => {
      const file = path.join(tmp(), 'secret');
      writeFileSync(file, content);
      return file;
    };
    const secrets = Object.entries(Variables.properties)
      .filter(([, schema]) => isSecret(schema))
      .map(([name]) => name);
    const errorOf = (env: Record<string, string>): ConfigError => {
      try {
        loadConfig({ PLOTLINE_DATA_DIR: tmp(), ...env });
      } catch (error) {
        if (error instanceof ConfigError) return error;
        throw error;
      }
      throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
    };

    it('are the keys, URLs with credentials and the metrics token', () => {
      expect(secrets.sort()).toEqual(
        ['DATABASE_URL', 'PLOTLINE_ENCRYPTION_KEY', 'PLOTLINE_METRICS_TOKEN', 'PLOTLINE_PREVIOUS_ENCRYPTION_KEYS', 'PLOTLINE_SHARE_SECRET', 'PLOTLINE_SMTP_URL', 'REDIS_URL'].sort(),
      );
    });

    it('reads each from the file its _FILE variable names, the trailing newline trimmed', () => {
      const previous = randomBytes(32).toString('hex');
      const config = loadConfig({
        PLOTLINE_DATA_DIR: tmp(),
        DATABASE_URL_FILE: secretFile('postgres://plotline:s3cret@db.internal/plotline\n'),
        PLOTLINE_ENCRYPTION_KEY_FILE: secretFile(`${KEY_A}\n`),
        PLOTLINE_SHARE_SECRET_FILE: secretFile(`${KEY_B}\r\n`),
        PLOTLINE_PREVIOUS_ENCRYPTION_KEYS_FILE: secretFile(`${previous}\n`),
        PLOTLINE_METRICS_TOKEN_FILE: secretFile('k3y-for-scrapers-91\n'),
        REDIS_URL_FILE: secretFile('redis://:s3cret@cache.internal:6379\n'),
        PLOTLINE_SMTP_URL_FILE: secretFile('smtp://alerts:s3cret@mail.internal:587\n'),
      });
      expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://plotline:s3cret@db.internal/plotline' });
      expect(config.encryptionKey.toString('hex')).toBe(KEY_A);
      expect(config.shareSecret.toString('hex')).toBe(KEY_B);
      expect(config.previousEncryptionKeys.map((key) => key.toString('hex'))).toEqual([previous]);
      expect(config.metricsToken).toBe('k3y-for-scrapers-91');
      expect(config.redisUrl).toBe('redis://:s3cret@cache.internal:6379');
      expect(config.smtpUrl).toBe('smtp://alerts:s3cret@mail.internal:587');
      expect(config.notices).toEqual([]);
    });

    it('refuses a secret set both directly and through _FILE, naming it', () => {
      const direct: Record<string, string> = {
        DATABASE_URL: 'postgres://localhost/x',
        PLOTLINE_ENCRYPTION_KEY: KEY_A,
        PLOTLINE_SHARE_SECRET: KEY_B,
        PLOTLINE_PREVIOUS_ENCRYPTION_KEYS: randomBytes(32).toString('hex'),
        PLOTLINE_METRICS_TOKEN: 'k3y-for-scrapers-91',
        REDIS_URL: 'redis://localhost:6379',
        PLOTLINE_SMTP_URL: 'smtp://mail.internal:587',
      };
      for (const name of secrets) {
        const error = errorOf({ [name]: direct[name]!, [`${name}_FILE`]: secretFile(direct[name]!) });
        expect(error.variable, name).toBe(name);
        expect(error.message).toBe(`${name}: is set and so is ${name}_FILE; set only one of them`);
      }
    });

    it('refuses a file that cannot be read, or is empty, naming the _FILE variable', () => {
      const missing = path.join(tmp(), 'not-there');
      expect(errorOf({ PLOTLINE_SHARE_SECRET_FILE: missing })).toMatchObject({
        variable: 'PLOTLINE_SHARE_SECRET_FILE',
        message: `PLOTLINE_SHARE_SECRET_FILE: cannot read ${missing} (ENOENT)`,
      });
      expect(errorOf({ REDIS_URL_FILE: tmp() })).toMatchObject({ variable: 'REDIS_URL_FILE', message: expect.stringContaining('(EISDIR)') });
      const empty = secretFile('\n');
      expect(errorOf({ PLOTLINE_ENCRYPTION_KEY_FILE: empty })).toMatchObject({
        variable: 'PLOTLINE_ENCRYPTION_KEY_FILE',
        message: `PLOTLINE_ENCRYPTION_KEY_FILE: ${empty} is empty`,
      });
    });

    it('a bad value read from a file stops boot with the message a bad variable gets, naming the _FILE variable', () => {
      expect(errorOf({ PLOTLINE_SHARE_SECRET_FILE: secretFile('zz'.repeat(32)) }).message).toBe(
        'PLOTLINE_SHARE_SECRET_FILE: must be 64 hexadecimal characters (32 bytes)',
      );
      expect(errorOf({ PLOTLINE_ENCRYPTION_KEY_FILE: secretFile('0'.repeat(64)) }).message).toMatch(/^PLOTLINE_ENCRYPTION_KEY_FILE: looks hand-made/);
      expect(errorOf({ REDIS_URL_FILE: secretFile('http://localhost:6379\n') }).message).toBe('REDIS_URL_FILE: must start with redis:// or rediss://');
      expect(errorOf({ DATABASE_URL_FILE: secretFile('mysql://x') }).variable).toBe('DATABASE_URL_FILE');
      expect(errorOf({ PLOTLINE_METRICS_TOKEN_FILE: secretFile('short') }).variable).toBe('PLOTLINE_METRICS_TOKEN_FILE');
      // Cross-variable checks still name the variable the rule is about.
      expect(errorOf({ PLOTLINE_ENCRYPTION_KEY: KEY_A, PLOTLINE_SHARE_SECRET_FILE: secretFile(KEY_A) }).variable).toBe('PLOTLINE_SHARE_SECRET');
    });

    it('exist only for secrets', () => {
      expect(loadConfig({ PLOTLINE_DATA_DIR: tmp(), PORT_FILE: secretFile('80') }).port).toBe(4019);
    });
  });
});
