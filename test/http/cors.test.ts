import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS_METHODS } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const CLIENT = 'https://charts.example.com';
const OTHER = 'https://elsewhere.example.com';

/** A browser's preflight for a cross-origin call carrying a bearer token and a JSON body. */
const preflight = (t: TestApp, url: string, method: string, origin: string) =>
  t.request({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
  });

describe('CORS for a web app on another origin (PLOTLINE_CORS_ORIGINS set)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PLOTLINE_CORS_ORIGINS: `${CLIENT}, http://localhost:4018` } });
  });
  afterAll(() => t.close());

  it('a listed origin may PUT and DELETE with a bearer token and a JSON body', async () => {
    for (const [url, method] of [
      ['/project/7', 'PUT'],
      ['/team/3/members/9', 'PUT'],
      ['/team/3/invite/4', 'DELETE'],
      ['/project/7/chart/8', 'DELETE'],
    ] as const) {
      const res = await preflight(t, url, method, CLIENT);
      expect(res.statusCode, `${method} ${url}`).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(CLIENT);
      const allowed = String(res.headers['access-control-allow-methods']).split(/,\s*/);
      expect(allowed).toContain(method);
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toBe('authorization,content-type');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const second = await preflight(t, '/project/7', 'DELETE', 'http://localhost:4018');
    expect(second.headers['access-control-allow-origin']).toBe('http://localhost:4018');
  });

  it('another origin gets no CORS headers, so its browser refuses the call', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await preflight(t, '/project/7', method, OTHER);
      // Without Access-Control-Allow-Origin the browser stops there, whatever else the answer says.
      expect(res.headers['access-control-allow-origin'], method).toBeUndefined();
    }
    const simple = await t.request({ method: 'GET', url: '/healthz', headers: { origin: OTHER } });
    expect(simple.statusCode).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const listed = await t.request({ method: 'GET', url: '/healthz', headers: { origin: CLIENT } });
    expect(listed.headers['access-control-allow-origin']).toBe(CLIENT);
    expect(listed.headers['access-control-expose-headers']).toBe('x-request-id');
  });

  it('the allowed methods are every method a route of the API answers', () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const used = new Set(Object.values(document.paths).flatMap((item) => Object.keys(item).map((method) => method.toUpperCase())));
    expect(used.size).toBeGreaterThanOrEqual(4);
    for (const method of used) expect(CORS_METHODS, method).toContain(method);
  });
});

describe('CORS by default (PLOTLINE_CORS_ORIGINS unset: any origin)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('any origin may PUT and DELETE, still without credentials', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await preflight(t, '/team/3', method, OTHER);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(OTHER);
      expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toContain(method);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });
});

describe('PLOTLINE_CORS_ORIGINS values', () => {
  const env = (value: string) => ({
    PLOTLINE_DATA_DIR: '/tmp/plotline-cors-config',
    PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
    PLOTLINE_CORS_ORIGINS: value,
  });

  it('reads `*` or a list of origins, written as browsers send them', () => {
    expect(loadConfig(env('*')).corsOrigins).toBe('*');
    expect(loadConfig(env(' https://Charts.example.com/ , http://localhost:4018')).corsOrigins).toEqual(['https://charts.example.com', 'http://localhost:4018']);
  });

  it('refuses what is not an origin, naming the variable', () => {
    for (const bad of ['https://charts.example.com/app', 'charts.example.com', 'ftp://charts.example.com', 'https://user:pw@charts.example.com', ' , ']) {
      expect(() => loadConfig(env(bad)), bad).toThrow(ConfigError);
      expect(() => loadConfig(env(bad)), bad).toThrow(/PLOTLINE_CORS_ORIGINS/);
    }
  });
});
