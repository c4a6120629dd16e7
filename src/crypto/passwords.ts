import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/*
 * scrypt with N=2^cost, r=8, p=1; the parameters travel with the hash so they can be raised later.
 * The cost is 15 (OWASP's floor) everywhere but in tests, which may lower it to stop paying for it.
 */
export const DEFAULT_COST = 15;
/** The most MAX_MEM allows (scrypt takes 128·N·r bytes): raising the cost means raising both. */
const MAX_COST = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

export interface PasswordHashing {
  /** log2 of scrypt's N (default 15). */
  cost?: number;
  /** Allows a cost below 15, for tests that would otherwise spend their time hashing; refused with NODE_ENV=production. */
  allowWeak?: boolean;
}

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes and verifies passwords (users' and dashboards'); one per container. */
export class PasswordHasher {
  readonly cost: number;
  private dummy: Promise<string> | undefined;

  constructor(options: PasswordHashing = {}) {
    const cost = options.cost ?? DEFAULT_COST;
    if (!Number.isInteger(cost) || cost < 1 || cost > MAX_COST) throw new Error(`scrypt cost must be an integer from 1 to ${MAX_COST}, got ${cost}`);
    if (cost < DEFAULT_COST) {
      // Checked here, not only by the callers: no configuration mistake can ship weak hashes.
      if (process.env['NODE_ENV'] === 'production') throw new Error(`scrypt cost 2^${cost} is below 2^${DEFAULT_COST}, refused with NODE_ENV=production`);
      if (!options.allowWeak) throw new Error(`scrypt cost 2^${cost} is below 2^${DEFAULT_COST}; only tests may lower it (allowWeak)`);
    }
    this.cost = cost;
  }

  async hash(password: string): Promise<string> {
    const n = 2 ** this.cost;
    const salt = randomBytes(16);
    const key = await scrypt(password, salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: MAX_MEM });
    return `scrypt$${n}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  }

  /** Reads the parameters from `stored`, so a hash keeps verifying whatever the cost is now. */
  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
    const expected = Buffer.from(key, 'base64url');
    const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: MAX_MEM,
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** A hash to compare against when the user does not exist, so login time does not reveal which emails exist. */
  dummyHash(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'));
    return this.dummy;
  }
}
