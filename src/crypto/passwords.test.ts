import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COST, PasswordHasher } from './passwords.js';

const CHEAP = { cost: 4, allowWeak: true };

describe('PasswordHasher', () => {
  const nodeEnv = process.env['NODE_ENV'];
  afterEach(() => {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  });

  it('hashes at N=2^15 by default', async () => {
    expect(DEFAULT_COST).toBe(15);
    const hasher = new PasswordHasher();
    expect(hasher.cost).toBe(15);
    expect(await hasher.hash('correct horse battery')).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it('refuses a cost below 2^15 unless weak hashing is allowed', () => {
    expect(() => new PasswordHasher({ cost: 4 })).toThrow(/below 2\^15; only tests may lower it/);
    expect(() => new PasswordHasher({ cost: 14, allowWeak: false })).toThrow(/below 2\^15/);
    expect(new PasswordHasher(CHEAP).cost).toBe(4);
  });

  it('refuses a cost below 2^15 with NODE_ENV=production, even when weak hashing is allowed', () => {
    process.env['NODE_ENV'] = 'production';
    expect(() => new PasswordHasher(CHEAP)).toThrow(/refused with NODE_ENV=production/);
    expect(new PasswordHasher().cost).toBe(15);
    expect(new PasswordHasher({ cost: 15 }).cost).toBe(15);
  });

  it('refuses a cost that is not an integer from 1 to 15', () => {
    for (const cost of [0, 4.5, 16, Number.NaN]) {
      expect(() => new PasswordHasher({ cost, allowWeak: true }), String(cost)).toThrow(/must be an integer from 1 to 15/);
    }
  });

  it('verifies what it hashed at a cheap cost, and refuses a wrong password', async () => {
    const hasher = new PasswordHasher(CHEAP);
    const stored = await hasher.hash('correct horse battery');
    expect(stored).toMatch(/^scrypt\$16\$8\$1\$/);
    expect(await hasher.verify('correct horse battery', stored)).toBe(true);
    expect(await hasher.verify('correct horse batterY', stored)).toBe(false);
    expect(await hasher.verify('correct horse battery', 'not a hash')).toBe(false);
  });

  it('reads the parameters from the stored hash, whatever its own cost', async () => {
    const strong = new PasswordHasher();
    const cheap = new PasswordHasher(CHEAP);
    expect(await cheap.verify('a long password', await strong.hash('a long password'))).toBe(true);
    expect(await strong.verify('a long password', await cheap.hash('a long password'))).toBe(true);
  });

  it('computes the dummy hash for unknown users once, at its own cost', async () => {
    const hasher = new PasswordHasher(CHEAP);
    const dummy = await hasher.dummyHash();
    expect(dummy).toMatch(/^scrypt\$16\$/);
    expect(await hasher.dummyHash()).toBe(dummy);
  });
});
