import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeServiceAccount, startFakeGoogle, type FakeGoogle } from '../../../test/helpers/google-fakes.js';
import { OutboundPolicy } from '../outbound/address-policy.js';
import { OutboundClient } from '../outbound/http-client.js';
import { RunControl } from '../run-control.js';
import { GoogleTokens, parseServiceAccount, type GoogleCredential } from './google-auth.js';

describe('Google access tokens', () => {
  let google: FakeGoogle;
  let client: OutboundClient;
  const account = makeServiceAccount('auth-project');
  const credential: GoogleCredential = { kind: 'service_account', account: parseServiceAccount(JSON.stringify(account.json)) };
  const scopes = ['https://www.googleapis.com/auth/datastore'];

  beforeAll(async () => {
    google = await startFakeGoogle();
    google.trust(account);
    client = new OutboundClient(new OutboundPolicy({ allowPrivateHosts: ['127.0.0.1'] }));
  });
  afterAll(async () => {
    await client.close();
    await google.close();
  });

  it('signs an RS256 JWT for the configured token URL, never the key file’s token_uri', async () => {
    const tokens = new GoogleTokens(client, { tokenUrl: google.tokenUrl });
    const control = new RunControl();
    const token = await tokens.token(control, credential, scopes);
    control.dispose();
    expect(token).toBe(google.issued.at(-1));
    const form = new URLSearchParams(google.requests.at(-1)!.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [header, payload] = form.get('assertion')!.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: account.json['private_key_id'] });
    expect(payload).toMatchObject({ iss: account.json['client_email'], aud: google.tokenUrl, scope: scopes[0] });
    expect(Number(payload!['exp']) - Number(payload!['iat'])).toBe(3600);
  });

  it('concurrent runs share one exchange; one giving up does not fail the others', async () => {
    const tokens = new GoogleTokens(client, { tokenUrl: google.tokenUrl });
    const before = google.issued.length;
    const quitter = new AbortController();
    const a = new RunControl({ signal: quitter.signal });
    const b = new RunControl();
    const first = tokens.token(a, credential, scopes);
    const second = tokens.token(b, credential, scopes);
    quitter.abort();
    await expect(first).rejects.toMatchObject({ code: 'RUN_ABORTED' });
    expect(await second).toBe(google.issued.at(-1));
    expect(google.issued.length).toBe(before + 1);
    a.dispose();
    b.dispose();
  });

  it('a key that is not a private key is a 400 naming the field', async () => {
    const broken: GoogleCredential = { kind: 'service_account', account: { client_email: 'x@y', private_key: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' } };
    const control = new RunControl();
    await expect(new GoogleTokens(client, { tokenUrl: google.tokenUrl }).token(control, broken, scopes)).rejects.toMatchObject({
      statusCode: 400,
      details: [{ path: 'firebaseServiceAccount.private_key' }],
    });
    control.dispose();
    expect(() => parseServiceAccount('{"private_key": "x"}')).toThrow(/client_email/);
    expect(() => parseServiceAccount('not json')).toThrow(/not valid JSON/);
  });
});
