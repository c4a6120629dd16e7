import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';

/*
 * Local stand-ins for Google's public REST APIs, answering as their documentation describes:
 * - the OAuth 2.0 token endpoint (JWT-bearer grant for service accounts, refresh-token grant),
 *   https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 * - Cloud Firestore v1 `runQuery` and `listCollectionIds`,
 *   https://firebase.google.com/docs/firestore/reference/rest
 * - Firebase Realtime Database REST reads (`GET /<path>.json` with orderBy, limits and ranges),
 *   https://firebase.google.com/docs/database/rest/retrieve-data
 * - Google Analytics Data API `runReport` and Admin API `accountSummaries`,
 *   https://developers.google.com/analytics/devguides/reporting/data/v1/rest
 * Every request is checked (method, path, bearer token, query, body) and recorded; a request that
 * does not match fails loudly with the documented error shape. No Google sandbox or emulator can
 * run on this machine, so these are what the sources are tested against.
 */

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServiceAccount {
  /** The key file as Google issues it (with a token_uri that must never be used). */
  json: Record<string, string>;
  privateKey: string;
}

/** A fresh RSA service account; its public key lets the token endpoint check signatures. */
export function makeServiceAccount(projectId = 'demo-project'): TestServiceAccount & { publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    privateKey: pkcs8,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    json: {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(8).toString('hex'),
      private_key: pkcs8,
      client_email: `reader@${projectId}.iam.gserviceaccount.com`,
      client_id: '1234567890',
      // A stored key file can say anything here; the sources must ignore it.
      token_uri: 'http://169.254.169.254/token',
    },
  };
}

export interface FakeGoogle {
  url: string;
  tokenUrl: string;
  requests: Recorded[];
  /** Tokens issued so far. */
  issued: string[];
  /** Makes every issued token invalid (the API then answers 401 as for an expired token). */
  expireTokens(): void;
  /** Registers a service account the token endpoint accepts. */
  trust(account: { json: Record<string, string>; publicKey: string }): void;
  /** Registers an OAuth client and refresh token the token endpoint accepts. */
  trustRefreshToken(clientId: string, clientSecret: string, refreshToken: string): void;
  /** Holds every API answer (not the token endpoint's) for `ms`, to stand for a slow provider. */
  stall(ms: number): void;
  /** The token endpoint's clock (ms), for tests that move the client's clock too. */
  setNow(ms: number): void;
  /** Route handlers by prefix, called with a verified token's scopes. */
  handle(prefix: string, handler: Handler): void;
  close(): Promise<void>;
}

export type Handler = (req: Recorded, res: ServerResponse, scopes: string[]) => void | Promise<void>;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=UTF-8');
  res.end(JSON.stringify(body));
}

/** Google's error envelope: `{error: {code, message, status}}`. */
export function googleError(res: ServerResponse, code: number, status: string, message: string): void {
  sendJson(res, code, { error: { code, message, status } });
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const accounts = new Map<string, string>();
  const refreshTokens = new Map<string, { clientSecret: string; refreshToken: string }>();
  const tokens = new Map<string, { scopes: string[]; valid: boolean }>();
  const handlers: [string, Handler][] = [];
  const requests: Recorded[] = [];
  const issued: string[] = [];
  let tokenUrl = '';
  let now = (): number => Date.now();
  let stallMs = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const recorded: Recorded = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      void route(recorded, res).catch((error: unknown) => googleError(res, 500, 'INTERNAL', String(error)));
    });
  });

  const route = async (req: Recorded, res: ServerResponse): Promise<void> => {
    if (req.path === '/token') return token(req, res);
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const grant = bearer ? tokens.get(bearer) : undefined;
    const handler = handlers.find(([prefix]) => req.path.startsWith(prefix));
    if (!handler) return googleError(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.path}`);
    if (!grant || !grant.valid) {
      // RTDB answers {error: "..."}; the Google APIs their envelope. Both with 401.
      if (handler[0].startsWith('/rtdb')) return sendJson(res, 401, { error: 'Unauthorized request.' });
      return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (stallMs > 0) await new Promise((resolve) => setTimeout(resolve, stallMs).unref());
    if (res.destroyed) return;
    return handler[1](req, res, grant.scopes);
  };

  const token = async (req: Recorded, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return sendJson(res, 400, { error: 'invalid_request', error_description: 'POST a form' });
    }
    const form = new URLSearchParams(req.body);
    let scopes: string[];
    if (form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      const assertion = form.get('assertion') ?? '';
      const [headerPart] = assertion.split('.');
      let email = '';
      try {
        email = String((JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString()) as { iss?: string }).iss ?? '');
        JSON.parse(Buffer.from(headerPart ?? '', 'base64url').toString());
      } catch {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT: malformed' });
      }
      const publicKey = accounts.get(email);
      if (!publicKey) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid grant: account not found' });
      try {
        const { payload, protectedHeader } = await jwtVerify(assertion, await importSPKI(publicKey, 'RS256'), { audience: tokenUrl, issuer: email, algorithms: ['RS256'], currentDate: new Date(now()) });
        if (protectedHeader.typ !== 'JWT' || typeof payload.scope !== 'string' || !payload.exp || !payload.iat || payload.exp - payload.iat > 3600) throw new Error('claims');
        scopes = payload.scope.split(' ');
      } catch {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
    } else if (form.get('grant_type') === 'refresh_token') {
      const client = refreshTokens.get(form.get('client_id') ?? '');
      if (!client || client.clientSecret !== form.get('client_secret')) return sendJson(res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
      if (client.refreshToken !== form.get('refresh_token')) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      scopes = ['https://www.googleapis.com/auth/analytics.readonly'];
    } else {
      return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${form.get('grant_type')}` });
    }
    const accessToken = `ya29.${randomBytes(18).toString('base64url')}`;
    tokens.set(accessToken, { scopes, valid: true });
    issued.push(accessToken);
    sendJson(res, 200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tokenUrl = `${url}/token`;
  return {
    url,
    tokenUrl,
    requests,
    issued,
    expireTokens: () => {
      for (const grant of tokens.values()) grant.valid = false;
    },
    trust: (account) => accounts.set(account.json['client_email']!, account.publicKey),
    trustRefreshToken: (clientId, clientSecret, refreshToken) => refreshTokens.set(clientId, { clientSecret, refreshToken }),
    handle: (prefix, handler) => handlers.push([prefix, handler]),
    stall: (ms) => {
      stallMs = ms;
    },
    setNow: (ms) => {
      now = () => ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
