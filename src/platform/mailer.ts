import type { Transporter } from 'nodemailer';

export interface MailerSettings {
  /** `smtp://…` or `smtps://…` with credentials in the URL (PLOTLINE_SMTP_URL); unset = no e-mail. */
  url: string | undefined;
  /** Sender address (PLOTLINE_SMTP_FROM). */
  from: string;
}

/** What a message may carry besides its text: an HTML part, files (inline ones named by `cid`), headers. */
export interface MailExtras {
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
  headers?: Record<string, string>;
}

/** What became of one message: delivered to the SMTP server, or why not (never the server's credentials). */
export interface MailResult {
  ok: boolean;
  detail: string;
}

/**
 * E-mail over the configured SMTP server, for every sender (alert notifications, team invitations):
 * one transport per process, nodemailer loaded on the first message only.
 */
export class Mailer {
  private transport: Promise<Transporter> | undefined;

  constructor(private readonly settings: MailerSettings) {}

  get configured(): boolean {
    return this.settings.url !== undefined;
  }

  private open(url: string): Promise<Transporter> {
    this.transport ??= (async () => {
      const [{ default: nodemailer }, { default: SMTPTransport }] = await Promise.all([import('nodemailer'), import('nodemailer/lib/smtp-transport/index.js')]);
      // nodemailer waits minutes for a silent server by default, and an invitation is answered once
      // its mail is handed over. The transport takes these beside the URL (whose own query wins);
      // createTransport() would keep the URL's settings only.
      const smtp = new SMTPTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
      return nodemailer.createTransport(smtp, { from: this.settings.from });
    })();
    return this.transport;
  }

  async send(to: string[], subject: string, text: string, extras: MailExtras = {}): Promise<MailResult> {
    if (!this.settings.url) return { ok: false, detail: 'No SMTP server is configured (PLOTLINE_SMTP_URL)' };
    try {
      const mail = await this.open(this.settings.url);
      const info = await mail.sendMail({ from: this.settings.from, to, subject, text, ...extras });
      return { ok: info.rejected.length === 0, detail: String(info.response ?? 'sent').slice(0, 200) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, detail: `The SMTP server refused or could not be reached${code ? ` (${code})` : ''}` };
    }
  }

  async close(): Promise<void> {
    if (this.transport) (await this.transport.catch(() => undefined))?.close();
  }
}
