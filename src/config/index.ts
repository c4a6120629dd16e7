import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';

/**
 * Every environment variable Plotline reads, parsed once at boot into a frozen object.
 * A bad value throws ConfigError naming the variable; the CLI prints it and exits.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly database: { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };
  /** 32-byte AES key for secrets at rest, with a short id so envelopes name their key. */
  readonly encryptionKey: Buffer;
  /** Previous encryption keys still accepted for reading (key rotation). */
  readonly previousEncryptionKeys: readonly Buffer[];
  /** HS256 key for share tokens; never the encryption key. */
  readonly shareSecret: Buffer;
  readonly baseUrl: string;
  readonly appUrl: string;
  readonly redisUrl: string | undefined;
  readonly signup: 'open' | 'closed';
  /** CIDRs and host names that HTTP sources may reach even though they are private. */
  readonly allowPrivateHosts: readonly string[];
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly trustProxy: boolean;
  /** Requests per minute: per client address on anonymous routes, per caller (user or API key) on authenticated ones. */
  readonly rateLimit: { readonly anonymous: number; readonly authenticated: number };
  /** Requests per minute per client address on each public share endpoint. */
  readonly shareRateLimit: number;
  /** Wrong dashboard passwords per client address and dashboard per 15 minutes, over every route that takes one. */
  readonly sharePasswordAttempts: number;
  /** Limits of one source run. */
  readonly queryTimeoutMs: number;
  readonly rowLimit: number;
  /** Rows a chart's aggregation may read (0 = no limit); the engine holds groups, not rows. */
  readonly chartRowLimit: number;
  /**
   * Bytes of rows one run may hold or return (dataset and data request runs, joins, exports, a
   * chart's table rows, groups and distinct values, and so its saved data), and the most one batch
   * of rows may hold while it is fetched.
   */
  readonly resultMaxBytes: number;
  /** Per stored SQL connection: pooled connections, runs that may wait for one, and the longest wait. */
  readonly sourcePool: { readonly size: number; readonly queueLimit: number; readonly waitTimeoutMs: number };
  /** Result cache: fresh for ttl, then served stale while one refresh runs. */
  readonly cacheTtlMs: number;
  readonly cacheStaleMs: number;
  /** Bytes the in-process result cache may hold (LRU; without Redis). */
  readonly cacheMaxBytes: number;
  /** Let the database group and aggregate charts over SQL datasets (off: always the streaming engine). */
  readonly chartPushdown: boolean;
  /** Whole-request limit (headers and body) before the connection is answered 408 and closed. */
  readonly requestTimeoutMs: number;
  /** Open connections allowed from one client address (0: no cap; behind a proxy every client shares its address). */
  readonly maxConnectionsPerAddress: number;
  /** When set, `/metrics` answers only `Authorization: Bearer <this token>`. */
  readonly metricsToken: string | undefined;
  /** How long a shutdown waits for in-flight requests before closing pools and exiting anyway. */
  readonly shutdownTimeoutMs: number;
  /** Where the provider sources send their requests (tests and air-gapped installs point them elsewhere). */
  readonly sourceEndpoints: SourceEndpoints;
  /** Run the scheduler (ticks and refresh work) in this process. `plotline worker` always does. */
  readonly scheduler: 'on' | 'off';
  /** Refreshes at once per process, and charts at once inside one dashboard refresh. */
  readonly refreshConcurrency: number;
  /** Run history is kept this many days. */
  readonly runHistoryDays: number;
  /** SMTP server for alert email (smtp:// or smtps://, credentials in the URL); unset = no email medium. */
  readonly smtpUrl: string | undefined;
  /** Sender address of alert email. */
  readonly smtpFrom: string;
  /** Messages for the operator about what boot did (generated keys, …), logged once the logger exists. */
  readonly notices: readonly string[];
}

export interface SourceEndpoints {
  /** OAuth token endpoint for service-account JWTs and refresh tokens (never a service account's own token_uri). */
  readonly googleTokenUrl: string;
  readonly firestoreUrl: string;
  readonly gaDataUrl: string;
  readonly gaAdminUrl: string;
  /** Customer.io App API base; unset: https://api.customer.io, or https://api-eu.customer.io for EU connections. */
  readonly customerioUrl: string | undefined;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function parsePort(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a port number, got "${raw}"`);
  const port = Number(raw);
  if (port < 0 || port > 65535) throw new ConfigError(name, `must be between 0 and 65535, got ${port}`);
  return port;
}

function parseUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http or https, got "${url.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function parseHexKey(name: string, raw: string): Buffer {
  if (!HEX_KEY.test(raw)) throw new ConfigError(name, 'must be 64 hexadecimal characters (32 bytes)');
  const key = Buffer.from(raw, 'hex');
  if (!looksRandom(key)) {
    throw new ConfigError(name, 'looks hand-made (repeated or sequential bytes); use 32 random bytes, e.g. `openssl rand -hex 32`');
  }
  return key;
}

/**
 * Refuses keys such as `000…0`, `aaa…a`, `0123…ef` repeated or `00 01 02 … 1f`. 32 random bytes
 * almost always hold about 30 distinct values and about 29 distinct steps from one byte to the
 * next; below 16 of either is far outside chance (well under 1 in 10^15) and means a human typed it.
 */
export function looksRandom(key: Buffer): boolean {
  const values = new Set(key);
  const steps = new Set<number>();
  for (let i = 1; i < key.length; i++) steps.add((key[i]! - key[i - 1]! + 256) % 256);
  return values.size >= 16 && steps.size >= 16;
}

function parseEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function parseInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function parseBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true, false, 1 or 0, got "${raw}"`);
}

const HOST_NAME = /^(?=.{1,253}$)([a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?)(\.[a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?)*\.?$/;

function parseAllowList(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [address, bits, ...rest] = item.split('/');
      if (rest.length === 0 && address !== undefined && isIP(address) !== 0) {
        if (bits === undefined) return item;
        const max = isIP(address) === 4 ? 32 : 128;
        if (/^\d+$/.test(bits) && Number(bits) <= max) return item;
      } else if (bits === undefined && address !== undefined && HOST_NAME.test(address)) {
        return item.toLowerCase();
      }
      throw new ConfigError(name, `"${item}" is neither a CIDR, an IP address nor a host name`);
    });
}

/** The data dir exists (created when missing) and takes files; otherwise one ConfigError naming it. */
function ensureWritableDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.W_OK | constants.X_OK);
    const probe = path.join(dataDir, `.write-test-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError('PLOTLINE_DATA_DIR', `the data dir ${dataDir} is not writable (${code}); create it or point PLOTLINE_DATA_DIR at a writable directory`);
  }
}

/**
 * Reads a key from the environment, or (embedded store only) from a file in the data dir,
 * generating it there once with mode 0600.
 */
function resolveKey(env: Env, name: string, fileName: string, dataDir: string, embedded: boolean, notices: string[]): Buffer {
  const raw = read(env, name);
  if (raw !== undefined) return parseHexKey(name, raw);
  if (!embedded) {
    throw new ConfigError(name, 'is required when DATABASE_URL points at Postgres (64 hex chars; generate one with `openssl rand -hex 32`)');
  }
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) {
    return parseHexKey(`${name} (from ${file})`, readFileSync(file, 'utf8').trim());
  }
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  notices.push(`generated ${name} into ${file} (mode 0600); back it up with the data dir`);
  return key;
}

export function loadConfig(env: Env = process.env): Config {
  const notices: string[] = [];
  const port = parsePort(env, 'PORT', 4019);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(read(env, 'PLOTLINE_DATA_DIR') ?? './data');

  const databaseUrl = read(env, 'DATABASE_URL');
  let database: Config['database'];
  if (databaseUrl === undefined) {
    database = { kind: 'sqlite', file: path.join(dataDir, 'plotline.db') };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    try {
      new URL(databaseUrl);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    database = { kind: 'postgres', url: databaseUrl };
  } else if (databaseUrl.startsWith('sqlite:')) {
    database = { kind: 'sqlite', file: path.resolve(databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '')) };
  } else {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// (or sqlite:<file>); leave it unset for the embedded store');
  }
  const embedded = database.kind === 'sqlite';
  if (embedded) ensureWritableDir(dataDir);

  const encryptionKey = resolveKey(env, 'PLOTLINE_ENCRYPTION_KEY', 'encryption.key', dataDir, embedded, notices);
  const shareSecret = resolveKey(env, 'PLOTLINE_SHARE_SECRET', 'share.key', dataDir, embedded, notices);
  if (encryptionKey.equals(shareSecret)) {
    throw new ConfigError('PLOTLINE_SHARE_SECRET', 'must differ from PLOTLINE_ENCRYPTION_KEY');
  }
  const previousRaw = read(env, 'PLOTLINE_PREVIOUS_ENCRYPTION_KEYS');
  const previousEncryptionKeys = previousRaw
    ? previousRaw.split(',').map((k) => parseHexKey('PLOTLINE_PREVIOUS_ENCRYPTION_KEYS', k.trim()))
    : [];

  const metricsToken = read(env, 'PLOTLINE_METRICS_TOKEN');
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken) || new Set(metricsToken).size < 8)) {
    throw new ConfigError('PLOTLINE_METRICS_TOKEN', 'must be at least 16 characters without spaces, and not a repeated pattern (e.g. `openssl rand -hex 24`)');
  }

  const redisUrl = read(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  }

  const smtpUrl = read(env, 'PLOTLINE_SMTP_URL');
  if (smtpUrl !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(smtpUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || parsed.hostname === '') {
      throw new ConfigError('PLOTLINE_SMTP_URL', 'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@mail.example.com:587');
    }
  }
  const smtpFrom = read(env, 'PLOTLINE_SMTP_FROM') ?? 'Plotline <plotline@localhost>';
  if (!/^[^\r\n]*<?[^@\s<>]+@[^@\s<>]+>?$/.test(smtpFrom)) {
    throw new ConfigError('PLOTLINE_SMTP_FROM', `must be an email address, optionally with a name ("Plotline <alerts@example.com>"), got "${smtpFrom}"`);
  }

  return Object.freeze({
    port,
    host,
    dataDir,
    database: Object.freeze(database),
    encryptionKey,
    previousEncryptionKeys: Object.freeze(previousEncryptionKeys),
    shareSecret,
    baseUrl: parseUrl(env, 'BASE_URL', `http://localhost:${port}`),
    appUrl: parseUrl(env, 'APP_URL', `http://localhost:${port}`),
    redisUrl,
    signup: parseEnum(env, 'PLOTLINE_SIGNUP', ['open', 'closed'] as const, 'open'),
    allowPrivateHosts: Object.freeze(parseAllowList(env, 'PLOTLINE_ALLOW_PRIVATE_HOSTS')),
    logLevel: parseEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: parseBool(env, 'PLOTLINE_TRUST_PROXY', false),
    rateLimit: Object.freeze({
      anonymous: parseInteger(env, 'PLOTLINE_RATE_LIMIT', 1200, 1, 100_000_000),
      authenticated: parseInteger(env, 'PLOTLINE_RATE_LIMIT_AUTHENTICATED', 6000, 1, 100_000_000),
    }),
    shareRateLimit: parseInteger(env, 'PLOTLINE_SHARE_RATE_LIMIT', 120, 1, 100_000_000),
    sharePasswordAttempts: parseInteger(env, 'PLOTLINE_SHARE_PASSWORD_ATTEMPTS', 20, 1, 100_000_000),
    queryTimeoutMs: parseInteger(env, 'PLOTLINE_QUERY_TIMEOUT_MS', 30_000, 100, 3_600_000),
    rowLimit: parseInteger(env, 'PLOTLINE_ROW_LIMIT', 100_000, 1, 100_000_000),
    chartRowLimit: parseInteger(env, 'PLOTLINE_CHART_ROW_LIMIT', 50_000_000, 0, 10_000_000_000),
    resultMaxBytes: parseInteger(env, 'PLOTLINE_RESULT_MAX_MB', 32, 1, 65_536) * 1024 * 1024,
    sourcePool: Object.freeze({
      size: parseInteger(env, 'PLOTLINE_SOURCE_POOL_SIZE', 5, 1, 1_000),
      queueLimit: parseInteger(env, 'PLOTLINE_SOURCE_QUEUE_LIMIT', 1_000, 0, 1_000_000),
      waitTimeoutMs: parseInteger(env, 'PLOTLINE_SOURCE_WAIT_TIMEOUT_MS', 20_000, 1, 3_600_000),
    }),
    cacheTtlMs: parseInteger(env, 'PLOTLINE_CACHE_TTL_SECONDS', 300, 0, 31_536_000) * 1000,
    cacheStaleMs: parseInteger(env, 'PLOTLINE_CACHE_STALE_SECONDS', 3600, 0, 31_536_000) * 1000,
    cacheMaxBytes: parseInteger(env, 'PLOTLINE_CACHE_MAX_MB', 64, 1, 1_048_576) * 1024 * 1024,
    chartPushdown: parseBool(env, 'PLOTLINE_CHART_PUSHDOWN', true),
    metricsToken,
    requestTimeoutMs: parseInteger(env, 'PLOTLINE_REQUEST_TIMEOUT_MS', 30_000, 1_000, 3_600_000),
    maxConnectionsPerAddress: parseInteger(env, 'PLOTLINE_MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000),
    shutdownTimeoutMs: parseInteger(env, 'PLOTLINE_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    sourceEndpoints: Object.freeze({
      googleTokenUrl: parseUrl(env, 'PLOTLINE_GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
      firestoreUrl: parseUrl(env, 'PLOTLINE_FIRESTORE_URL', 'https://firestore.googleapis.com'),
      gaDataUrl: parseUrl(env, 'PLOTLINE_GA_DATA_URL', 'https://analyticsdata.googleapis.com'),
      gaAdminUrl: parseUrl(env, 'PLOTLINE_GA_ADMIN_URL', 'https://analyticsadmin.googleapis.com'),
      customerioUrl: read(env, 'PLOTLINE_CUSTOMERIO_URL') === undefined ? undefined : parseUrl(env, 'PLOTLINE_CUSTOMERIO_URL', ''),
    }),
    scheduler: parseEnum(env, 'PLOTLINE_SCHEDULER', ['on', 'off'] as const, 'on'),
    refreshConcurrency: parseInteger(env, 'PLOTLINE_REFRESH_CONCURRENCY', 2, 1, 64),
    runHistoryDays: parseInteger(env, 'PLOTLINE_RUN_HISTORY_DAYS', 30, 1, 3650),
    smtpUrl,
    smtpFrom,
    notices: Object.freeze(notices),
  });
}
