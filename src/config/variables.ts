import path from 'node:path';
import { Type, type StaticDecode, type TSchema, type TStringOptions } from 'typebox';
import {
  allowListEntry,
  allowListProblem,
  corsOrigin,
  corsOriginsProblem,
  databaseUrlProblem,
  emailSenderProblem,
  httpUrlProblem,
  listItems,
  metricsTokenProblem,
  POSTGRES_URL,
  redisUrlProblem,
  smtpUrlProblem,
} from './checks.js';
import type { Config } from './index.js';
import { hexKeyListProblem, hexKeyProblem } from './keys.js';

/*
 * Every environment variable Plotline reads, declared once: its type, bounds, default and the
 * description the README's configuration table shows. `read-env.ts` turns the environment into
 * these values; `loadConfig` builds the Config from them. A variable marked `secret` may instead
 * be read from the file its `NAME_FILE` variable names.
 */

/** A string that is refused, with the message `problem` gives, whenever `problem` finds one. */
function checked(options: TStringOptions, problem: (raw: string) => string | undefined) {
  return Type.Refine(
    Type.String(options),
    (raw) => problem(raw) === undefined,
    (raw) => problem(raw) ?? '',
  );
}

/** An absolute http(s) URL, without its trailing slashes. */
function httpUrl(options: TStringOptions) {
  return Type.Decode(checked(options, httpUrlProblem), (url) => url.replace(/\/+$/, ''));
}

/** 32 bytes written as 64 hex characters. */
function hexKey(options: TStringOptions) {
  return Type.Decode(checked(options, hexKeyProblem), (raw) => Buffer.from(raw, 'hex'));
}

/** A key as read from its generated file in the data dir. */
export const KeyFile = hexKey({});

export const Variables = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4019, description: 'listen port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'listen address (`0.0.0.0` to expose)' }),
  PLOTLINE_DATA_DIR: Type.String({ default: './data', description: 'SQLite store and generated keys' }),
  DATABASE_URL: Type.Optional(
    Type.Decode(
      checked({ secret: true, description: '`postgres://…` to use Postgres instead of SQLite' }, databaseUrlProblem),
      (url): Config['database'] =>
        POSTGRES_URL.test(url) ? { kind: 'postgres', url } : { kind: 'sqlite', file: path.resolve(url.slice('sqlite:'.length).replace(/^\/\//, '')) },
    ),
  ),
  PLOTLINE_ENCRYPTION_KEY: Type.Optional(hexKey({ secret: true, description: '64 hex chars of random bytes (`openssl rand -hex 32`; hand-made keys such as `000…0` are refused); AES-256-GCM key for secrets at rest. Required with Postgres' })),
  PLOTLINE_SHARE_SECRET: Type.Optional(hexKey({ secret: true, description: '64 hex chars of random bytes; signs share tokens. Required with Postgres; must differ from the encryption key' })),
  PLOTLINE_PREVIOUS_ENCRYPTION_KEYS: Type.Optional(
    Type.Decode(checked({ secret: true, description: 'comma-separated old keys still accepted for reading (key rotation)' }, hexKeyListProblem), (raw) =>
      raw.split(',').map((key) => Buffer.from(key.trim(), 'hex')),
    ),
  ),
  // Unset, BASE_URL and APP_URL are http://localhost:<PORT>.
  BASE_URL: Type.Optional(httpUrl({ description: 'public address of the API; its origin is accepted by the CSRF check of cookie sessions' })),
  APP_URL: Type.Optional(httpUrl({ description: 'public address of the report/embed pages and the editor; its origin is accepted by the CSRF check of cookie sessions. When this or `BASE_URL` is https, the session cookie is `__Host-plotline_session` (Secure)' })),
  PLOTLINE_CORS_ORIGINS: Type.Decode(
    checked(
      {
        default: '*',
        description:
          'origins whose pages may call the API from a browser (CORS), comma-separated (`https://charts.example.com,http://localhost:4018`), or `*` for any; a listed origin may use every method of the API. Bearer tokens only: the session cookie is never sent across origins',
      },
      corsOriginsProblem,
    ),
    (raw): Config['corsOrigins'] => (raw.trim() === '*' ? '*' : Object.freeze(listItems(raw).map((item) => corsOrigin(item)!))),
  ),
  REDIS_URL: Type.Optional(checked({ secret: true, description: '`redis://…` for the shared cache, rate limits and the refresh queue (BullMQ); optional at run time too: while it is unreachable the service keeps answering (`/readyz` says `degraded`)' }, redisUrlProblem)),
  PLOTLINE_SIGNUP: Type.Enum(['open', 'closed'], { default: 'open', description: '`closed` allows only the first sign-up; add users with the CLI' }),
  PLOTLINE_ALLOW_PRIVATE_HOSTS: Type.Optional(
    Type.Decode(checked({ description: 'CIDRs or host names HTTP sources may reach although private' }, allowListProblem), (raw) =>
      listItems(raw).map((item) => allowListEntry(item)!),
    ),
  ),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', description: '`fatal`…`trace`, or `silent`' }),
  PLOTLINE_TRUST_PROXY: Type.Boolean({ default: false, description: 'trust `X-Forwarded-For` (behind a reverse proxy)' }),
  PLOTLINE_QUERY_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 30_000, description: 'limit of one source run; the query is cancelled on the source past it (504)' }),
  PLOTLINE_ROW_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000_000, default: 100_000, description: 'rows kept per run whose rows are held or returned (dataset runs, joins, table charts); a cut run says `truncated: true` with `rowLimit`' }),
  PLOTLINE_CHART_ROW_LIMIT: Type.Integer({ minimum: 0, maximum: 10_000_000_000, default: 50_000_000, description: "rows a chart's aggregation may read (`0`: no limit); a cut chart is marked `truncated` with the limit" }),
  PLOTLINE_RESULT_MAX_MB: Type.Integer({ minimum: 1, maximum: 65_536, default: 32, description: "bytes (MiB, about their size as JSON) of rows one run may hold or return (dataset and data request runs, joins, exports, a table chart's rows), of what a chart may hold while it is computed (groups, distinct values: its saved data), and of one batch of rows in flight; a cut result says `truncated: true, truncatedBy: \"bytes\"` with `byteLimit` ([docs/security.md](docs/security.md), \"Availability\")" }),
  PLOTLINE_SOURCE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 1_000, default: 5, description: "connections per stored SQL connection (Postgres, MySQL); more runs wait in that connection's queue" }),
  PLOTLINE_SOURCE_QUEUE_LIMIT: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 1_000, description: 'runs that may wait for a pooled connection; past it 503 `SOURCE_BUSY` with `retry-after` at once' }),
  PLOTLINE_SOURCE_WAIT_TIMEOUT_MS: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 20_000, description: 'longest wait for a pooled connection before 503 `SOURCE_BUSY` with `retry-after`' }),
  PLOTLINE_CACHE_TTL_SECONDS: Type.Integer({ minimum: 0, maximum: 31_536_000, default: 300, description: 'results served from the cache without running the source' }),
  PLOTLINE_CACHE_STALE_SECONDS: Type.Integer({ minimum: 0, maximum: 31_536_000, default: 3600, description: 'then served stale while one background run refreshes them' }),
  PLOTLINE_CACHE_MAX_MB: Type.Integer({ minimum: 1, maximum: 1_048_576, default: 64, description: 'bytes (MiB) the in-process result cache may hold without Redis; least recently used results go first' }),
  PLOTLINE_CHART_PUSHDOWN: Type.Boolean({ default: true, description: 'let the database group and aggregate charts over SQL datasets (`false`: always the streaming engine)' }),
  PLOTLINE_RATE_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000_000, default: 1200, description: 'requests per minute per client address on anonymous routes' }),
  PLOTLINE_RATE_LIMIT_AUTHENTICATED: Type.Integer({ minimum: 1, maximum: 100_000_000, default: 6000, description: 'requests per minute per caller (a user, or one API key) on authenticated routes' }),
  PLOTLINE_SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000, description: 'on SIGTERM/SIGINT, how long in-flight requests may finish before pools, Redis and the store close anyway' }),
  PLOTLINE_GOOGLE_TOKEN_URL: httpUrl({ default: 'https://oauth2.googleapis.com/token', description: "where Firestore, Realtime Database and Google Analytics credentials are exchanged for access tokens (a service account's own `token_uri` is never used)" }),
  PLOTLINE_FIRESTORE_URL: httpUrl({ default: 'https://firestore.googleapis.com', description: 'Firestore REST API base' }),
  PLOTLINE_GA_DATA_URL: httpUrl({ default: 'https://analyticsdata.googleapis.com', description: 'Google Analytics Data API base (`runReport`)' }),
  PLOTLINE_GA_ADMIN_URL: httpUrl({ default: 'https://analyticsadmin.googleapis.com', description: 'Google Analytics Admin API base (`accountSummaries`)' }),
  PLOTLINE_CUSTOMERIO_URL: Type.Optional(httpUrl({ description: 'Customer.io App API base for every region; unset: `https://api.customer.io`, or `https://api-eu.customer.io` for EU connections' })),
  PLOTLINE_SHARE_RATE_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000_000, default: 120, description: 'requests per minute per client address on the public share endpoints' }),
  PLOTLINE_SHARE_PASSWORD_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 100_000_000, default: 20, description: 'wrong dashboard passwords per client address and dashboard per 15 minutes, over every public route that takes one (report and exports together); then 429 until the window renews' }),
  PLOTLINE_METRICS_TOKEN: Type.Optional(checked({ secret: true, description: 'when set, `/metrics` answers only `Authorization: Bearer <token>` (at least 16 characters); unset while `HOST` is not a loopback address, boot logs a warning naming it and `/readyz` lists it under `warnings`' }, metricsTokenProblem)),
  PLOTLINE_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 30_000, description: 'a request (headers and body) that takes longer to arrive is answered 408 and closed' }),
  PLOTLINE_MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 256, description: 'open connections per client address (`0`: no cap; raise it behind a reverse proxy)' }),
  PLOTLINE_SCHEDULER: Type.Enum(['on', 'off'], { default: 'on', description: '`off`: this process serves HTTP only and runs no scheduled refreshes (run `plotline worker` elsewhere)' }),
  PLOTLINE_REFRESH_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2, description: 'refreshes at once per process, and charts at once inside one dashboard refresh (1–64)' }),
  PLOTLINE_RUN_HISTORY_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30, description: 'refresh and delivery history kept this many days, then pruned by the scheduler' }),
  PLOTLINE_SMTP_URL: Type.Optional(checked({ secret: true, description: '`smtp://user:pass@host:587` or `smtps://…` for alert email and team invitations; unset = the email medium of alerts is refused and invitation links are not e-mailed' }, smtpUrlProblem)),
  PLOTLINE_SMTP_FROM: checked({ default: 'Plotline <plotline@localhost>', description: 'sender of alert and invitation email' }, emailSenderProblem),
  PLOTLINE_SUBSCRIPTION_MAX_RECIPIENTS: Type.Integer({ minimum: 1, maximum: 10_000, default: 50, description: 'recipients (emails, Slack webhooks, webhooks) one subscription may have; more is a 400' }),
  PLOTLINE_TEAM_MAX_SUBSCRIPTIONS: Type.Integer({ minimum: 1, maximum: 100_000, default: 100, description: 'subscriptions one team may have; one more is a 400' }),
  PLOTLINE_DELIVERY_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 10, default: 4, description: 'tries of each send of a delivery before it gives up (marked failed, logged, counted)' }),
  PLOTLINE_DELIVERY_BACKOFF_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 30_000, description: 'wait before the second try of a failed send; doubled before each further try' }),
  PLOTLINE_DELIVERY_LEASE_MS: Type.Integer({
    minimum: 180_000,
    maximum: 21_600_000,
    default: 600_000,
    description: 'a delivery whose process has not been heard from for this long (it reports at each send and every minute) died mid-delivery: the next scheduler tick of any process takes it over and sends it to the targets it had not reached (3 minutes to 6 hours)',
  }),
});

export type Variables = StaticDecode<typeof Variables>;

/** True for a variable that may be read from the file named by `NAME_FILE` (Docker and Kubernetes secrets). */
export function isSecret(schema: TSchema): boolean {
  return (schema as { secret?: unknown }).secret === true;
}
