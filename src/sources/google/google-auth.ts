import { createHash, createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { ValidationError } from '../../errors/index.js';
import { SourceQueryError } from '../errors.js';
import type { OutboundClient } from '../outbound/http-client.js';
import { asSourceError, providerError, sendJson, type ProviderLabel } from '../remote/json-call.js';
import { RunControl } from '../run-control.js';
import type { SourceConnection } from '../types.js';

/** The fields of a Google service-account key file that signing needs. */
export interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
}

export type GoogleCredential =
  | { kind: 'service_account'; account: ServiceAccount }
  | { kind: 'refresh_token'; clientId: string; clientSecret: string; refreshToken: string };

export interface GoogleTokensOptions {
  /** PLOTLINE_GOOGLE_TOKEN_URL. The service account's own `token_uri` is never used. */
  tokenUrl: string;
  /** Milliseconds since the epoch; tests inject their own clock. */
  now?: () => number;
}

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

/** A token is renewed this long before Google says it expires, so that it cannot lapse mid-run. */
const EXPIRY_MARGIN_MS = 60_000;
/** One exchange has its own limit: it is shared by every run waiting for it, whichever gives up first. */
const EXCHANGE_TIMEOUT_MS = 15_000;
const MAX_CACHED = 1_000;
const ASSERTION_LIFETIME_S = 3600;
const TOKEN_LABEL: ProviderLabel = { name: 'The Google token endpoint', credential: 'credentials' };

/** Parses the stored service-account JSON; a 400 names what is missing. */
export function parseServiceAccount(raw: string | null | undefined, field = 'firebaseServiceAccount'): ServiceAccount {
  if (!raw) throw ValidationError.field(field, 'is required: the service account key JSON');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw ValidationError.field(field, 'is not valid JSON');
  }
  const account = parsed as Partial<ServiceAccount> | null;
  if (!account || typeof account !== 'object') throw ValidationError.field(field, 'must be the service account key object');
  if (typeof account.client_email !== 'string' || !account.client_email) throw ValidationError.field(`${field}.client_email`, 'is required');
  if (typeof account.private_key !== 'string' || !account.private_key.includes('PRIVATE KEY')) {
    throw ValidationError.field(`${field}.private_key`, 'is required (a PEM private key)');
  }
  return {
    client_email: account.client_email,
    private_key: account.private_key,
    ...(typeof account.private_key_id === 'string' ? { private_key_id: account.private_key_id } : {}),
    ...(typeof account.project_id === 'string' ? { project_id: account.project_id } : {}),
  };
}

/** Values never to be echoed in a message, whatever the token endpoint answers. */
function secretsOf(credential: GoogleCredential): string[] {
  return credential.kind === 'service_account' ? [credential.account.private_key] : [credential.refreshToken, credential.clientSecret];
}

function credentialName(credential: GoogleCredential): string {
  return credential.kind === 'service_account' ? `service account ${credential.account.client_email}` : 'OAuth refresh token';
}

/**
 * Access tokens for Google APIs: a service-account JWT (RS256, signed with jose) or an OAuth
 * refresh token, exchanged at the configured token URL and cached per credential and scopes until
 * shortly before they expire. Concurrent runs share one exchange.
 */
export class GoogleTokens {
  private readonly cache = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<CachedToken>>();
  private readonly now: () => number;

  constructor(
    private readonly client: OutboundClient,
    private readonly options: GoogleTokensOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async token(control: RunControl, credential: GoogleCredential, scopes: readonly string[], conn?: SourceConnection): Promise<string> {
    const key = cacheKey(credential, scopes);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > this.now()) return cached.accessToken;
    let inFlight = this.pending.get(key);
    if (!inFlight) {
      const own = new RunControl({ timeoutMs: EXCHANGE_TIMEOUT_MS });
      inFlight = this.exchange(own, credential, scopes, conn).finally(() => {
        own.dispose();
        this.pending.delete(key);
      });
      // A waiting run may give up (abort, deadline) before the exchange ends; the rejection is then nobody's.
      inFlight.catch(() => undefined);
      this.pending.set(key, inFlight);
    }
    const fresh = await control.race(inFlight);
    this.remember(key, fresh);
    return fresh.accessToken;
  }

  private remember(key: string, token: CachedToken): void {
    if (this.cache.size >= MAX_CACHED) {
      const now = this.now();
      for (const [k, v] of this.cache) if (v.expiresAt - EXPIRY_MARGIN_MS <= now) this.cache.delete(k);
      // Still full: drop the oldest entry (Map keeps insertion order).
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, token);
  }

  /** Forgets a token the API refused as expired or revoked, so the next call exchanges again. */
  invalidate(credential: GoogleCredential, scopes: readonly string[]): void {
    this.cache.delete(cacheKey(credential, scopes));
  }

  private async exchange(control: RunControl, credential: GoogleCredential, scopes: readonly string[], conn?: SourceConnection): Promise<CachedToken> {
    const form = new URLSearchParams();
    if (credential.kind === 'service_account') {
      form.set('grant_type', 'urn:ietf:params:oauth:grant-type:jwt-bearer');
      form.set('assertion', await this.assertion(credential.account, scopes));
    } else {
      form.set('grant_type', 'refresh_token');
      form.set('refresh_token', credential.refreshToken);
      form.set('client_id', credential.clientId);
      form.set('client_secret', credential.clientSecret);
    }
    const startedAt = this.now();
    let answer;
    try {
      answer = await sendJson(this.client, control, {
        url: this.options.tokenUrl,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
    } catch (error) {
      throw asSourceError(error, TOKEN_LABEL, conn);
    }
    if (answer.status >= 300) {
      const label = { name: TOKEN_LABEL.name, credential: credentialName(credential) };
      // invalid_grant / invalid_client are refused credentials, whatever the status code.
      const status = answer.status === 400 ? 401 : answer.status;
      throw providerError(label, { ...answer, status }, conn, secretsOf(credential));
    }
    const body = answer.json as { access_token?: unknown; expires_in?: unknown } | null;
    if (!body || typeof body.access_token !== 'string' || !body.access_token) {
      throw new SourceQueryError('The Google token endpoint answered without an access_token');
    }
    const expiresIn = Number(body.expires_in ?? 3600);
    return { accessToken: body.access_token, expiresAt: startedAt + (Number.isFinite(expiresIn) ? expiresIn : 3600) * 1000 };
  }

  private async assertion(account: ServiceAccount, scopes: readonly string[]): Promise<string> {
    let key;
    try {
      key = createPrivateKey({ key: account.private_key, format: 'pem' });
    } catch {
      throw new SourceQueryError(`The private_key of service account ${account.client_email} is not a valid PEM private key`, [
        { path: 'firebaseServiceAccount.private_key', message: 'is not a valid PEM private key' },
      ]);
    }
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({ scope: scopes.join(' ') })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.private_key_id ? { kid: account.private_key_id } : {}) })
      .setIssuer(account.client_email)
      .setSubject(account.client_email)
      .setAudience(this.options.tokenUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_LIFETIME_S)
      .sign(key);
  }
}

function cacheKey(credential: GoogleCredential, scopes: readonly string[]): string {
  const parts =
    credential.kind === 'service_account'
      ? ['sa', credential.account.client_email, credential.account.private_key]
      : ['rt', credential.clientId, credential.clientSecret, credential.refreshToken];
  return createHash('sha256').update([...parts, [...scopes].sort().join(' ')].join('\u0000')).digest('hex');
}

/**
 * Calls a Google API with a cached token; when the API says the token is no longer valid (401),
 * the token is exchanged once more and the call repeated once.
 */
export async function withGoogleToken<T extends { status: number }>(
  tokens: GoogleTokens,
  control: RunControl,
  credential: GoogleCredential,
  scopes: readonly string[],
  conn: SourceConnection,
  call: (accessToken: string) => Promise<T>,
): Promise<T> {
  const first = await call(await tokens.token(control, credential, scopes, conn));
  if (first.status !== 401) return first;
  tokens.invalidate(credential, scopes);
  return call(await tokens.token(control, credential, scopes, conn));
}
