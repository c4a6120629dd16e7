import { createHmac } from 'node:crypto';
import { AppError } from '../../errors/index.js';
import type { MailExtras, Mailer } from '../../platform/mailer.js';
import { TargetNotAllowedError, type OutboundClient, type OutboundPolicy } from '../../sources/index.js';
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
  /** The policy `http` applies, also asked when a target is saved. */
  policy: OutboundPolicy;
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

  /**
   * Refuses (400 TARGET_NOT_ALLOWED) a URL the address policy would refuse on delivery, when it is
   * saved. A name that does not resolve now is left for delivery to report.
   */
  async checkTarget(url: string, path: string): Promise<void> {
    try {
      const parsed = this.deps.policy.checkUrl(url);
      await this.deps.policy.resolve(parsed.hostname).catch((error: unknown) => {
        // DNS failures (and names without addresses) are not the policy's refusal.
        if (error instanceof TargetNotAllowedError && error.reason !== 'invalid_url') throw error;
      });
    } catch (error) {
      if (error instanceof TargetNotAllowedError) throw new TargetNotAllowedError(`${path}: ${error.message}`, error.reason);
      throw error;
    }
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

  /** A JSON POST without a signature (Slack incoming webhooks), through the same client and policy. */
  async postJson(url: string, payload: unknown): Promise<Delivery> {
    try {
      const response = await this.deps.http.request({
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Plotline-Deliveries' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        maxBytes: WEBHOOK_MAX_RESPONSE,
      });
      return { medium: 'webhook', ok: response.status >= 200 && response.status < 300, detail: `HTTP ${response.status}` };
    } catch (error) {
      return { medium: 'webhook', ok: false, detail: error instanceof AppError ? `${error.code}: ${error.message}` : 'The webhook could not be reached' };
    }
  }

  get mailer(): Mailer {
    return this.deps.mailer;
  }

  async email(recipients: string[], subject: string, text: string, extras?: MailExtras): Promise<Delivery> {
    const result = await this.deps.mailer.send(recipients, subject, text, extras);
    return { medium: 'email', ...result };
  }
}
