import { createHmac } from 'node:crypto';
import { AppError } from '../../errors/index.js';
import type { Mailer } from '../../platform/mailer.js';
import type { OutboundClient } from '../../sources/outbound/http-client.js';
import type { Delivery } from './alerts-repository.js';

const SIGNATURE_HEADER = 'x-plotline-signature';
const WEBHOOK_TIMEOUT_MS = 10_000;
const WEBHOOK_MAX_RESPONSE = 64 * 1024;

/** The signature a receiver recomputes: `sha256=` + hex HMAC-SHA256 of the exact body with the alert's secret. */
function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface AlertNotifierDeps {
  http: OutboundClient;
  /** The process's SMTP sender (shared with team invitations). */
  mailer: Mailer;
}

/**
 * Delivers alert notifications: webhooks through the outbound client (the same address policy
 * as HTTP sources: private and metadata addresses refused unless allowed), email over SMTP.
 */
export class AlertNotifier {
  constructor(private readonly deps: AlertNotifierDeps) {}

  get emailConfigured(): boolean {
    return this.deps.mailer.configured;
  }

  async webhook(url: string, secret: string, payload: unknown): Promise<Delivery> {
    const body = JSON.stringify(payload);
    try {
      const response = await this.deps.http.request({
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Plotline-Alerts', [SIGNATURE_HEADER]: signBody(secret, body) },
        body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        maxBytes: WEBHOOK_MAX_RESPONSE,
      });
      return { medium: 'webhook', ok: response.status >= 200 && response.status < 300, detail: `HTTP ${response.status}` };
    } catch (error) {
      return { medium: 'webhook', ok: false, detail: error instanceof AppError ? `${error.code}: ${error.message}` : 'The webhook could not be reached' };
    }
  }

  async email(recipients: string[], subject: string, text: string): Promise<Delivery> {
    const result = await this.deps.mailer.send(recipients, subject, text);
    return { medium: 'email', ...result };
  }
}
