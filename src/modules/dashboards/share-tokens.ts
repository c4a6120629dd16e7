import { webcrypto } from 'node:crypto';
import type { EntityType } from './sharing-schemas.js';
import { shareErrors } from './sharing-errors.js';

/**
 * Share tokens: compact JWTs, HS256 only, signed with the share secret (never the encryption key).
 *
 * Claims:
 * - `sub`: the subject as JSON text, `{"type":"Project"|"Chart","id":<entity id>}`. RFC 7519 makes
 *   `sub` a string, so the subject object travels serialised there rather than as an object claim;
 * - `pid`: the share policy id; `ver`: the policy's revision (its revocation counter) when the
 *   token was issued; the policy answers it as `token_version` one higher (sharing-repository.ts);
 * - `aud`: `plotline:share`, so no other kind of token signed with the same key can pass as one;
 * - `iat`, `exp`.
 *
 * A signature proves only that we issued the token; the policy it names is re-checked on every use.
 */
const SHARE_AUDIENCE = 'plotline:share';
/** Default lifetime when the issuer gives no `exp`: 99999 days, as the contract says. */
const DEFAULT_LIFETIME_SECONDS = 99_999 * 24 * 60 * 60;
/** Longer strings are not tokens we issued; refusing them early keeps the verifier's work bounded. */
const MAX_TOKEN_LENGTH = 2048;

export interface ShareSubject {
  type: EntityType;
  id: number;
}

export interface ShareClaims {
  subject: ShareSubject;
  policyId: number;
  version: number;
  issuedAt: number;
  expiresAt: number;
}

export interface IssueInput {
  subject: ShareSubject;
  policyId: number;
  version: number;
  /** Epoch seconds; default now + 99999 days. */
  expiresAt?: number;
}

function isPositiveInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function parseSubject(raw: unknown): ShareSubject | undefined {
  if (typeof raw !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, id } = value as Record<string, unknown>;
  if ((type !== 'Project' && type !== 'Chart') || !isPositiveInt(id)) return undefined;
  return { type, id };
}

/** jose is loaded on the first share token issued or checked, not at every start. */
let jose: Promise<typeof import('jose')> | undefined;
const loadJose = () =>
  (jose ??= import('jose').catch((error: unknown) => {
    jose = undefined;
    throw error;
  }));

export class ShareTokens {
  private key: Promise<webcrypto.CryptoKey> | undefined;

  constructor(private readonly secret: Uint8Array) {
    if (secret.length < 32) throw new Error('The share secret must be at least 32 bytes');
  }

  /** Imported once: importing the raw secret on every verification is measurable per request. */
  private hmacKey(): Promise<webcrypto.CryptoKey> {
    this.key ??= webcrypto.subtle.importKey('raw', this.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.key;
  }

  async issue(input: IssueInput, now: number = Math.floor(Date.now() / 1000)): Promise<string> {
    const { SignJWT } = await loadJose();
    return new SignJWT({ pid: input.policyId, ver: input.version })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(JSON.stringify({ type: input.subject.type, id: input.subject.id }))
      .setAudience(SHARE_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(input.expiresAt ?? now + DEFAULT_LIFETIME_SECONDS)
      .sign(await this.hmacKey());
  }

  /**
   * Signature (HS256 only: `none` and every other algorithm are refused), audience and `exp`.
   * Throws the share 401s; the caller still has to check the policy the token names.
   */
  async verify(token: string): Promise<ShareClaims> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw shareErrors.tokenInvalid();
    const { errors, jwtVerify } = await loadJose();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, await this.hmacKey(), { algorithms: ['HS256'], audience: SHARE_AUDIENCE, requiredClaims: ['sub', 'iat', 'exp'] }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw shareErrors.tokenExpired();
      throw shareErrors.tokenInvalid();
    }
    const subject = parseSubject(payload['sub']);
    const { pid, ver, iat, exp } = payload;
    if (!subject || !isPositiveInt(pid) || !isPositiveInt(ver) || typeof iat !== 'number' || typeof exp !== 'number') {
      throw shareErrors.tokenInvalid();
    }
    return { subject, policyId: pid, version: ver, issuedAt: iat, expiresAt: exp };
  }
}
