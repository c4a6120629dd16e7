import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createContainer } from '../../src/container.js';
import { buildTestApp, TEST_PASSWORD_HASHING } from '../helpers/app.js';

describe('the password-hash cost', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-cost-'));
  const config = loadConfig({
    PLOTLINE_DATA_DIR: dataDir,
    PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const nodeEnv = process.env['NODE_ENV'];
  afterEach(() => {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a container asked for a cheap cost under NODE_ENV=production refuses to start, before it opens the store', async () => {
    process.env['NODE_ENV'] = 'production';
    await expect(createContainer(config, { passwordHashing: TEST_PASSWORD_HASHING })).rejects.toThrow(/refused with NODE_ENV=production/);
    expect(existsSync(path.join(dataDir, 'plotline.db'))).toBe(false);
  });

  it('is 2^15 unless the container is given another', async () => {
    const container = await createContainer(config);
    try {
      expect(container.passwords.cost).toBe(15);
    } finally {
      await container.close();
    }
  });

  it('is cheap in the test app, and what it stores still reads as a scrypt hash', async () => {
    const t = await buildTestApp();
    try {
      await t.signup();
      const { password_hash } = await t.container.store.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
      expect(password_hash).toMatch(/^scrypt\$16\$8\$1\$/);
    } finally {
      await t.close();
    }
  });
});
