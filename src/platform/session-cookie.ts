import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors/index.js';

/**
 * The editor's session lives in a cookie: HttpOnly (page scripts never see the token) and
 * SameSite=Strict (no other site's page can make the browser send it). Every other client keeps
 * sending `Authorization: Bearer`.
 *
 * Behind https the cookie is `__Host-plotline_session`: Secure, Path=/ and no Domain, which the
 * browser enforces for that prefix, so neither a plain-http page nor a sibling subdomain can set
 * or replace it. It is read back under that name only, and the plain name is ignored there.
 */
const SESSION_COOKIE = 'plotline_session';
const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** The public addresses the browser reaches the editor and the API at (APP_URL, BASE_URL). */
export interface PublicUrls {
  baseUrl: string;
  appUrl: string;
}

function originOf(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Cookie sessions as the configuration describes them, decided once at boot:
 * - https: when BASE_URL or APP_URL is https, every session cookie is the `__Host-` one, whatever
 *   the request looks like to this process (a TLS-terminating proxy that does not say so, or is
 *   not trusted, must not downgrade it); otherwise when the request itself came over https (TLS,
 *   or `X-Forwarded-Proto` from a trusted proxy). Plain `plotline_session` is left to plain http.
 * - CSRF: a cookie-authenticated write must carry an `Origin` that is BASE_URL's or APP_URL's
 *   origin (for a loopback address, the same scheme and port on another loopback name). The Host
 *   header is never trusted for this: a DNS-rebound name would make any origin look like our own.
 */
export class BrowserSessions {
  private readonly httpsConfigured: boolean;
  private readonly origins: ReadonlySet<string>;
  /** BASE_URL's and APP_URL's origins, for the refusal message. */
  private readonly named: string;

  constructor(urls: PublicUrls) {
    const configured = [urls.baseUrl, urls.appUrl].map(originOf).filter((url): url is URL => url !== undefined);
    this.httpsConfigured = configured.some((url) => url.protocol === 'https:');
    const origins = new Set<string>();
    for (const url of configured) {
      origins.add(url.origin);
      if (!LOOPBACK_HOSTS.includes(url.hostname)) continue;
      // localhost, 127.0.0.1 and [::1] name this machine alike: the same port is the same server.
      for (const host of LOOPBACK_HOSTS) origins.add(`${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`);
    }
    this.origins = origins;
    this.named = [...new Set(configured.map((url) => url.origin))].join(', ');
  }

  /** Whether this request's session cookie is the `__Host-` one (Secure). */
  secure(request: FastifyRequest): boolean {
    return this.httpsConfigured || request.protocol === 'https';
  }

  /** The session token from the Cookie header, under the one name that applies to this request. */
  read(request: FastifyRequest): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    const name = this.secure(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      if (part.slice(0, eq).trim() !== name) continue;
      const value = part.slice(eq + 1).trim();
      return /^[\w.~-]{1,512}$/.test(value) ? value : undefined;
    }
    return undefined;
  }

  set(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
    void reply.header('set-cookie', this.cookie(request, token, maxAgeSeconds));
  }

  clear(request: FastifyRequest, reply: FastifyReply): void {
    void reply.header('set-cookie', this.cookie(request, '', 0));
  }

  /**
   * CSRF defence for cookie-authenticated writes (and cookie logins): the browser's `Origin` must
   * be one of the configured origins. Browsers always send Origin on cross-origin and non-GET
   * same-origin fetches; a write without one is refused.
   */
  requireSameOrigin(request: FastifyRequest): void {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || origin === '' || origin === 'null') {
      throw new ForbiddenError("Cookie-authenticated writes need an Origin header from this server's own pages", 'CSRF_ORIGIN_REQUIRED');
    }
    if (!this.origins.has(origin)) {
      throw new ForbiddenError(
        `Origin ${origin} may not write with this server's session cookie; open the editor at BASE_URL or APP_URL (${this.named})`,
        'CSRF_ORIGIN_MISMATCH',
      );
    }
  }

  private cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
    const secure = this.secure(request);
    // No Domain attribute: the cookie stays with the exact host that set it (required for __Host-).
    const attributes = [`${secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
    if (secure) attributes.push('Secure');
    return attributes.join('; ');
  }
}
