import { connect, type Socket } from 'node:net';

/*
 * Two tiny pieces of the Postgres wire protocol that node-postgres does not expose:
 * the SSLRequest probe (for sslmode=prefer) and the CancelRequest (stop a running query the way
 * psql's Ctrl-C does; no login needed, works through most poolers).
 */

const SSL_REQUEST_CODE = 80877103;
const CANCEL_REQUEST_CODE = 80877102;

function open(host: string, port: number): Socket {
  return host.startsWith('/') ? connect({ path: `${host}/.s.PGSQL.${port}` }) : connect({ host, port });
}

/** Asks the server whether it accepts TLS; true for 'S', false for 'N'. */
export function probeSsl(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = open(host, port);
    const done = (error: Error | undefined, value?: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(value === true);
    };
    const timer = setTimeout(() => done(Object.assign(new Error(`timeout connecting to ${host}:${port}`), { code: 'ETIMEDOUT' })), timeoutMs);
    socket.once('connect', () => {
      const packet = Buffer.alloc(8);
      packet.writeInt32BE(8, 0);
      packet.writeInt32BE(SSL_REQUEST_CODE, 4);
      socket.write(packet);
    });
    socket.once('data', (data) => done(undefined, data[0] === 0x53 /* 'S' */));
    socket.once('error', (error) => done(error));
  });
}

/** Sends a CancelRequest for the backend `processId`; resolves when the server has closed the socket. */
export function sendCancelRequest(host: string, port: number, processId: number, secretKey: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = open(host, port);
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.once('connect', () => {
      const packet = Buffer.alloc(16);
      packet.writeInt32BE(16, 0);
      packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
      packet.writeInt32BE(processId, 8);
      packet.writeInt32BE(secretKey, 12);
      socket.end(packet);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', () => undefined);
  });
}
