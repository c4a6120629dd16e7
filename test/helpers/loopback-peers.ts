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
  close(): Promise<void>;
}

/** Keeps every request; `status` says what to answer each one (200 by default). */
export async function startHookReceiver(status: (request: Received) => number = () => 200): Promise<HookReceiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body };
      received.push(request);
      const code = status(request);
      res.writeHead(code).end(code < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
