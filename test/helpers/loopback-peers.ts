import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * The peers Plotline sends to, on loopback: a real SMTP server (the smtp-server package, no TLS, no
 * login) that keeps every message parsed, and an HTTP server standing in for Slack and webhooks
 * that keeps every request. Each listens on a free port and closes with the test.
 */
export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for PLOTLINE_SMTP_URL. */
  url: string;
  mails: ParsedMail[];
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => mails.push(mail))
        .then(() => done(), done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mails,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HookReceiver {
  /** `http://127.0.0.1:<port>`: any path under it is received. */
  origin: string;
  received: Received[];
  /**
   * The next request to `path` is kept (and counted as received) but not answered until
   * `release()`: a send that hangs, as to a peer that stopped answering. Later requests to the
   * path are answered as usual.
   */
  hold(path: string): Hold;
  close(): Promise<void>;
}

export interface Hold {
  /** True once the held request has arrived. */
  readonly arrived: boolean;
  /** Answers the held request (200, or `status`); a no-op if the client gave up meanwhile. */
  release(status?: number): void;
}

/** Keeps every request; `status` says what to answer each one (200 by default). */
export async function startHookReceiver(status: (request: Received) => number = () => 200): Promise<HookReceiver> {
  const received: Received[] = [];
  const holds = new Map<string, { arrived: boolean; answer?: (code: number) => void; released?: number }>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body };
      received.push(request);
      const answer = (code: number) => {
        if (!res.destroyed) res.writeHead(code).end(code < 300 ? 'ok' : 'no');
      };
      const held = holds.get(request.path);
      if (held && !held.arrived) {
        held.arrived = true;
        if (held.released !== undefined) answer(held.released);
        else held.answer = answer;
        return;
      }
      answer(status(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const releaseAll = () => {
    for (const held of holds.values()) {
      held.released ??= 200;
      held.answer?.(held.released);
    }
  };
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    hold(path) {
      const held: { arrived: boolean; answer?: (code: number) => void; released?: number } = { arrived: false };
      holds.set(path, held);
      return {
        get arrived() {
          return held.arrived;
        },
        release(code = 200) {
          held.released ??= code;
          held.answer?.(held.released);
          held.answer = undefined;
        },
      };
    },
    close: () => {
      releaseAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
