import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** Reads what the server sends until it closes the socket. */
function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('the HTTP server protects itself', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PLOTLINE_REQUEST_TIMEOUT_MS: '1000', PLOTLINE_MAX_CONNECTIONS_PER_ADDRESS: '4', PLOTLINE_METRICS_TOKEN: 'metrics-token-7f3a9c21e4' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('a request body that never finishes arriving is answered 408 JSON and closed (was held for 300 s)', async () => {
    const socket = await open(port);
    const closed = readUntilClosed(socket);
    socket.write('POST /user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":');
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: expect.any(String), code: 'REQUEST_TIMEOUT' });
  });

  it('caps open connections per client address', async () => {
    const sockets = await Promise.all([1, 2, 3, 4].map(() => open(port)));
    try {
      const extra = await open(port);
      // The fifth socket is accepted by the kernel, then closed by the server without an answer.
      expect(await readUntilClosed(extra)).toBe('');
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // Once they close, the address may connect again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });

  it('a 16 KB query string answers {error, code} JSON', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/team?x=${'a'.repeat(16 * 1024)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ error: expect.stringContaining('too large'), code: 'HEADERS_TOO_LARGE' });
  });

  it('/metrics needs its bearer token when PLOTLINE_METRICS_TOKEN is set', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer wrong-token-000000' } })).status).toBe(401);
    const ok = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer metrics-token-7f3a9c21e4' } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('plotline_http_requests_total');
  });
});
