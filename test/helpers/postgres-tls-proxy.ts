import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { TLSSocket } from 'node:tls';

/*
 * TLS: the local server has no TLS, so a small proxy in front of it speaks the Postgres TLS
 * negotiation (SSLRequest -> 'S' -> handshake) with certificates made here by openssl, then pipes
 * the decrypted stream to the real server. Cancel requests are forwarded as they are.
 * `makeCertificates` needs the openssl command.
 */
export function makeCertificates(dir: string): Record<'ca' | 'serverKey' | 'serverCert' | 'clientKey' | 'clientCert' | 'otherCa', string> {
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const key = (name: string): void => run('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', `${name}.key`);
  key('ca');
  run('req', '-x509', '-new', '-key', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Plotline Test CA');
  key('other');
  run('req', '-x509', '-new', '-key', 'other.key', '-out', 'other.pem', '-days', '2', '-subj', '/CN=Someone Else CA');
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost\n');
  key('server');
  run('req', '-new', '-key', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext');
  key('client');
  run('req', '-new', '-key', 'client.key', '-out', 'client.csr', '-subj', '/CN=postgres');
  run('x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '2');
  const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
  return {
    ca: read('ca.pem'),
    serverKey: read('server.key'),
    serverCert: read('server.pem'),
    clientKey: read('client.key'),
    clientCert: read('client.pem'),
    otherCa: read('other.pem'),
  };
}

export function startTlsProxy(
  upstream: { host: string; port: number },
  certs: ReturnType<typeof makeCertificates>,
  requireClientCert: boolean,
): Promise<{ server: Server; port: number }> {
  const server = createServer((raw: Socket) => {
    raw.on('error', () => raw.destroy());
    raw.once('data', (first: Buffer) => {
      const code = first.length >= 8 ? first.readInt32BE(4) : 0;
      const target = connect(upstream.port, upstream.host);
      target.on('error', () => raw.destroy());
      if (code !== 80877103) {
        // A cancel request or a plain startup: pass it through untouched.
        target.write(first);
        raw.pipe(target).pipe(raw);
        return;
      }
      raw.write('S');
      const secure = new TLSSocket(raw, {
        isServer: true,
        key: certs.serverKey,
        cert: certs.serverCert,
        ca: certs.ca,
        requestCert: requireClientCert,
        rejectUnauthorized: requireClientCert,
      });
      secure.on('error', () => {
        secure.destroy();
        target.destroy();
      });
      secure.pipe(target).pipe(secure);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}
