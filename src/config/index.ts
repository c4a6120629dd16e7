import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './error.js';
import { decodeText, readVariables, type Env } from './read-env.js';
import { KeyFile } from './variables.js';

export { ConfigError } from './error.js';
export { looksRandom } from './keys.js';

/**
 * Every environment variable Plotline reads (declared in `variables.ts`), parsed once at boot into a
 * frozen object. A bad value throws ConfigError naming the variable; the CLI prints it and exits.
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
  /** Origins whose pages may call the API from a browser (CORS): `*` for any, else exactly these. */
  readonly corsOrigins: '*' | readonly string[];
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
  /**
   * Scheduled deliveries: limits, the tries of a failed send, and the lease: a delivery whose
   * process has not been heard from for that long is taken over by another.
   */
  readonly deliveries: { readonly maxRecipients: number; readonly maxPerTeam: number; readonly attempts: number; readonly backoffMs: number; readonly leaseMs: number };
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

const MIB = 1024 * 1024;

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
 * The key the environment gave, or (embedded store only) the one in a file in the data dir,
 * generated there once with mode 0600.
 */
function resolveKey(name: string, key: Buffer | undefined, fileName: string, dataDir: string, embedded: boolean, notices: string[]): Buffer {
  if (key !== undefined) return key;
  if (!embedded) {
    throw new ConfigError(name, 'is required when DATABASE_URL points at Postgres (64 hex chars; generate one with `openssl rand -hex 32`)');
  }
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) {
    return decodeText(`${name} (from ${file})`, KeyFile, readFileSync(file, 'utf8').trim()) as Buffer;
  }
  const generated = randomBytes(32);
  writeFileSync(file, `${generated.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  notices.push(`generated ${name} into ${file} (mode 0600); back it up with the data dir`);
  return generated;
}

export function loadConfig(env: Env = process.env): Config {
  const vars = readVariables(env);
  const notices: string[] = [];
  const dataDir = path.resolve(vars.PLOTLINE_DATA_DIR);
  const database = vars.DATABASE_URL ?? { kind: 'sqlite', file: path.join(dataDir, 'plotline.db') };
  const embedded = database.kind === 'sqlite';
  if (embedded) ensureWritableDir(dataDir);

  const encryptionKey = resolveKey('PLOTLINE_ENCRYPTION_KEY', vars.PLOTLINE_ENCRYPTION_KEY, 'encryption.key', dataDir, embedded, notices);
  const shareSecret = resolveKey('PLOTLINE_SHARE_SECRET', vars.PLOTLINE_SHARE_SECRET, 'share.key', dataDir, embedded, notices);
  if (encryptionKey.equals(shareSecret)) {
    throw new ConfigError('PLOTLINE_SHARE_SECRET', 'must differ from PLOTLINE_ENCRYPTION_KEY');
  }
  const localhost = `http://localhost:${vars.PORT}`;

  return Object.freeze({
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    database: Object.freeze(database),
    encryptionKey,
    previousEncryptionKeys: Object.freeze(vars.PLOTLINE_PREVIOUS_ENCRYPTION_KEYS ?? []),
    shareSecret,
    baseUrl: vars.BASE_URL ?? localhost,
    appUrl: vars.APP_URL ?? localhost,
    corsOrigins: vars.PLOTLINE_CORS_ORIGINS,
    redisUrl: vars.REDIS_URL,
    signup: vars.PLOTLINE_SIGNUP,
    allowPrivateHosts: Object.freeze(vars.PLOTLINE_ALLOW_PRIVATE_HOSTS ?? []),
    logLevel: vars.LOG_LEVEL,
    trustProxy: vars.PLOTLINE_TRUST_PROXY,
    rateLimit: Object.freeze({ anonymous: vars.PLOTLINE_RATE_LIMIT, authenticated: vars.PLOTLINE_RATE_LIMIT_AUTHENTICATED }),
    shareRateLimit: vars.PLOTLINE_SHARE_RATE_LIMIT,
    sharePasswordAttempts: vars.PLOTLINE_SHARE_PASSWORD_ATTEMPTS,
    queryTimeoutMs: vars.PLOTLINE_QUERY_TIMEOUT_MS,
    rowLimit: vars.PLOTLINE_ROW_LIMIT,
    chartRowLimit: vars.PLOTLINE_CHART_ROW_LIMIT,
    resultMaxBytes: vars.PLOTLINE_RESULT_MAX_MB * MIB,
    sourcePool: Object.freeze({
      size: vars.PLOTLINE_SOURCE_POOL_SIZE,
      queueLimit: vars.PLOTLINE_SOURCE_QUEUE_LIMIT,
      waitTimeoutMs: vars.PLOTLINE_SOURCE_WAIT_TIMEOUT_MS,
    }),
    cacheTtlMs: vars.PLOTLINE_CACHE_TTL_SECONDS * 1000,
    cacheStaleMs: vars.PLOTLINE_CACHE_STALE_SECONDS * 1000,
    cacheMaxBytes: vars.PLOTLINE_CACHE_MAX_MB * MIB,
    chartPushdown: vars.PLOTLINE_CHART_PUSHDOWN,
    metricsToken: vars.PLOTLINE_METRICS_TOKEN,
    requestTimeoutMs: vars.PLOTLINE_REQUEST_TIMEOUT_MS,
    maxConnectionsPerAddress: vars.PLOTLINE_MAX_CONNECTIONS_PER_ADDRESS,
    shutdownTimeoutMs: vars.PLOTLINE_SHUTDOWN_TIMEOUT_MS,
    sourceEndpoints: Object.freeze({
      googleTokenUrl: vars.PLOTLINE_GOOGLE_TOKEN_URL,
      firestoreUrl: vars.PLOTLINE_FIRESTORE_URL,
      gaDataUrl: vars.PLOTLINE_GA_DATA_URL,
      gaAdminUrl: vars.PLOTLINE_GA_ADMIN_URL,
      customerioUrl: vars.PLOTLINE_CUSTOMERIO_URL,
    }),
    scheduler: vars.PLOTLINE_SCHEDULER,
    refreshConcurrency: vars.PLOTLINE_REFRESH_CONCURRENCY,
    runHistoryDays: vars.PLOTLINE_RUN_HISTORY_DAYS,
    smtpUrl: vars.PLOTLINE_SMTP_URL,
    smtpFrom: vars.PLOTLINE_SMTP_FROM,
    deliveries: Object.freeze({
      maxRecipients: vars.PLOTLINE_SUBSCRIPTION_MAX_RECIPIENTS,
      maxPerTeam: vars.PLOTLINE_TEAM_MAX_SUBSCRIPTIONS,
      attempts: vars.PLOTLINE_DELIVERY_ATTEMPTS,
      backoffMs: vars.PLOTLINE_DELIVERY_BACKOFF_MS,
      leaseMs: vars.PLOTLINE_DELIVERY_LEASE_MS,
    }),
    notices: Object.freeze(notices),
  });
}
