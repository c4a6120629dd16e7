import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);
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

  it('parses the private-host allow-list', () => {
    const config = loadConfig({ PLOTLINE_DATA_DIR: tmp(), PLOTLINE_ALLOW_PRIVATE_HOSTS: '10.0.0.0/8, 127.0.0.1, ::1/128, DB.internal' });
    expect(config.allowPrivateHosts).toEqual(['10.0.0.0/8', '127.0.0.1', '::1/128', 'db.internal']);
  });
});
