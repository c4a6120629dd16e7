import { createHmac, webcrypto } from 'node:crypto';
import { UnauthorizedError } from '../../errors/index.js';

/**
 * Signed, expiring links to a picture (for places that need a URL, such as Slack): compact JWTs,
 * HS256 only, signed with the share secret like share tokens (share-tokens.ts), but of another kind
 * that neither verifier accepts for the other:
 * - `aud` is `plotline:image` (share tokens carry `plotline:share`), and the header's `typ` is
 *   `plotline-image+jwt`;
 * - claims: `tid` team, `prj` dashboard, `cht` chart (absent for a dashboard picture), `fmt`
 *   format, `thm` theme, `wid` width in pixels (absent: the default), `iat`, `exp`. No `sub` or `pid`, which a share token must have.
 *
 * Signing is synchronous (node:crypto's HMAC over the standard JWS layout), because the link is
 * built where no await is possible; verifying goes through jose with the algorithm pinned.
 */
const IMAGE_AUDIENCE = 'plotline:image';
const IMAGE_TYPE = 'plotline-image+jwt';
const MAX_TOKEN_LENGTH = 2048;

export type ImageFormat = 'png' | 'svg' | 'pdf';
export type ImageTheme = 'light' | 'dark';

export interface ImageClaims {
  teamId: number;
  projectId: number;
  chartId?: number;
  format: ImageFormat;
  theme: ImageTheme;
  /** The picture's width in pixels; absent, the default of its kind. */
  width?: number;
  expiresAt: number;
}

export class ImageTokenError extends UnauthorizedError {
  constructor(expired: boolean) {
    super(expired ? 'The image link has expired' : 'The image link is not valid', expired ? 'IMAGE_LINK_EXPIRED' : 'IMAGE_LINK_INVALID');
  }
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');
const isPositiveInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** jose is loaded on the first link checked, not at every start. */
let jose: Promise<typeof import('jose')> | undefined;
const loadJose = () =>
  (jose ??= import('jose').catch((error: unknown) => {
    jose = undefined;
    throw error;
  }));

export class ImageTokens {
  private key: Promise<webcrypto.CryptoKey> | undefined;

  constructor(private readonly secret: Uint8Array) {
    if (secret.length < 32) throw new Error('The share secret must be at least 32 bytes');
  }

  private hmacKey(): Promise<webcrypto.CryptoKey> {
    this.key ??= webcrypto.subtle.importKey('raw', this.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    return this.key;
  }

  issue(claims: ImageClaims, now: number = Math.floor(Date.now() / 1000)): string {
    const header = base64url(JSON.stringify({ alg: 'HS256', typ: IMAGE_TYPE }));
    const payload: Record<string, unknown> = { aud: IMAGE_AUDIENCE, tid: claims.teamId, prj: claims.projectId, fmt: claims.format, thm: claims.theme, iat: now, exp: claims.expiresAt };
    if (claims.chartId !== undefined) payload['cht'] = claims.chartId;
    if (claims.width !== undefined) payload['wid'] = claims.width;
    const body = `${header}.${base64url(JSON.stringify(payload))}`;
    return `${body}.${createHmac('sha256', this.secret).update(body).digest('base64url')}`;
  }

  /** Signature (HS256 only), type, audience and `exp` (against `now`, the clock that issued it); 401 IMAGE_LINK_INVALID or IMAGE_LINK_EXPIRED. */
  async verify(token: string, now: Date = new Date()): Promise<ImageClaims> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new ImageTokenError(false);
    const { errors, jwtVerify } = await loadJose();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, await this.hmacKey(), { algorithms: ['HS256'], audience: IMAGE_AUDIENCE, typ: IMAGE_TYPE, requiredClaims: ['iat', 'exp'], currentDate: now }));
    } catch (error) {
      throw new ImageTokenError(error instanceof errors.JWTExpired);
    }
    const { tid, prj, cht, fmt, thm, wid, exp } = payload;
    const format = fmt === 'png' || fmt === 'svg' || fmt === 'pdf' ? fmt : undefined;
    const theme = thm === 'light' || thm === 'dark' ? thm : undefined;
    if (!isPositiveInt(tid) || !isPositiveInt(prj) || (cht !== undefined && !isPositiveInt(cht)) || (wid !== undefined && !isPositiveInt(wid)) || !format || !theme || typeof exp !== 'number') throw new ImageTokenError(false);
    return { teamId: tid, projectId: prj, ...(cht === undefined ? {} : { chartId: cht as number }), ...(wid === undefined ? {} : { width: wid as number }), format, theme, expiresAt: exp };
  }
}
