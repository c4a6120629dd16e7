import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../crypto/secrets.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { MASK, MaskWithoutValue, maskWebhookUrl, restoreWebhookUrl } from '../../redaction/index.js';
import type { AlertNotifier } from './alerts-notifier.js';
import type { Delivery } from './alerts-repository.js';
import type { AlertIntegrationInput } from './alerts-schemas.js';
import type { AlertIntegration, IntegrationFields, IntegrationRecord, IntegrationsRepository } from './integrations-repository.js';
import { INTEGRATION_TYPES, type CreateIntegrationInput, type IntegrationView, type UpdateIntegrationInput } from './integrations-schemas.js';

export interface IntegrationsDeps {
  integrations: IntegrationsRepository;
  access: AccessService;
  secrets: SecretBox;
  notifier: AlertNotifier;
}

/** What a triggered alert says, for an integration to pass on. */
export interface AlertMessage {
  /** The signed JSON payload of a webhook. */
  payload: unknown;
  /** The one line of a Slack message. */
  text: string;
  /** A whole Slack message (blocks with the chart's picture), sent instead of `{text}` when given. */
  slack?: unknown;
}

export type { AlertIntegration };

type IntegrationType = (typeof INTEGRATION_TYPES)[number];

function isIntegrationType(value: string): value is IntegrationType {
  return (INTEGRATION_TYPES as readonly string[]).includes(value);
}

/**
 * Integrations: a team's alert channels (a webhook, or a Slack incoming webhook), which alerts
 * notify besides their own mediums. The URL and the signing key are encrypted at rest; answers
 * show the URL's origin only and the key once, when it is made. URLs pass the outbound address
 * policy when saved and again when used.
 */
export class IntegrationsService {
  constructor(private readonly deps: IntegrationsDeps) {}

  async list(actor: Actor, teamId: number): Promise<IntegrationView[]> {
    await this.deps.access.require(actor, teamId, 'integration:read');
    return (await this.deps.integrations.list(teamId)).map((r) => this.view(r));
  }

  async get(actor: Actor, teamId: number, id: number): Promise<IntegrationView> {
    await this.deps.access.require(actor, teamId, 'integration:read');
    return this.view(await this.find(teamId, id));
  }

  async create(actor: Actor, teamId: number, input: CreateIntegrationInput): Promise<IntegrationView> {
    await this.deps.access.require(actor, teamId, 'integration:write');
    const type = this.checkType(input.type);
    const url = await this.checkUrl(input.config.url, null);
    const secret = randomBytes(32).toString('hex');
    const record = await this.deps.integrations.create(teamId, {
      name: this.checkName(input.name),
      type,
      url: this.deps.secrets.encrypt(url),
      slackMode: input.config.slackMode ?? false,
      webhookSecret: this.deps.secrets.encrypt(secret),
    });
    return { ...this.view(record), webhookSecret: secret };
  }

  async update(actor: Actor, teamId: number, id: number, input: UpdateIntegrationInput): Promise<IntegrationView> {
    await this.deps.access.require(actor, teamId, 'integration:write');
    const current = await this.find(teamId, id);
    if (input.type !== undefined && input.type !== current.type) throw ValidationError.field('body.type', 'cannot be changed; create another integration');
    const fields: IntegrationFields = {};
    if (input.name !== undefined) fields.name = this.checkName(input.name);
    if (input.config?.slackMode !== undefined) fields.slackMode = input.config.slackMode;
    if (input.config?.url !== undefined) {
      const stored = this.deps.secrets.decrypt(current.url);
      const url = await this.checkUrl(input.config.url, stored);
      if (url !== stored) fields.url = this.deps.secrets.encrypt(url);
    }
    const updated = await this.deps.integrations.update(teamId, id, fields);
    if (!updated) throw new NotFoundError('Integration');
    return this.view(updated);
  }

  async delete(actor: Actor, teamId: number, id: number): Promise<void> {
    await this.deps.access.require(actor, teamId, 'integration:write');
    if (!(await this.deps.integrations.delete(teamId, id))) throw new NotFoundError('Integration');
  }

  // ---- for alerts (the caller has authorized the request) ----

  /** The integration links of these alerts, by alert id. */
  async linksOf(alertIds: readonly number[]): Promise<Map<number, AlertIntegration[]>> {
    return this.deps.integrations.linksOf(alertIds);
  }

  /** Checks an alert body's integrations against the team: every one must be an integration of it. */
  async checkLinks(teamId: number, input: readonly AlertIntegrationInput[], path: string): Promise<{ integration_id: number; enabled: boolean }[]> {
    const known = new Set((await this.deps.integrations.list(teamId)).map((r) => r.id));
    const seen = new Map<number, boolean>();
    input.forEach((link, i) => {
      if (!known.has(link.integration_id)) throw ValidationError.field(`${path}.${i}.integration_id`, 'is not an integration of this team');
      seen.set(link.integration_id, link.enabled ?? true);
    });
    return [...seen].map(([integration_id, enabled]) => ({ integration_id, enabled }));
  }

  async replaceLinks(alertId: number, links: readonly { integration_id: number; enabled: boolean }[]): Promise<void> {
    await this.deps.integrations.replaceLinks(alertId, links);
  }

  /** Sends a triggered alert to each enabled integration of the alert; one delivery each. */
  async notify(teamId: number, alertId: number, message: AlertMessage): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    for (const integration of await this.deps.integrations.enabledFor(alertId, teamId)) {
      const url = this.deps.secrets.decrypt(integration.url);
      const body = integration.slackMode ? (message.slack ?? { text: message.text }) : message.payload;
      // The notifier's client applies the address policy again: an address may have changed since it was saved.
      const sent = await this.deps.notifier.webhook(url, this.deps.secrets.decrypt(integration.webhookSecret), body);
      deliveries.push({ medium: 'integration', integration_id: integration.id, ok: sent.ok, detail: `${integration.name}: ${sent.detail}` });
    }
    return deliveries;
  }

  /** The team's integrations among `ids`, with their URL and key decrypted (for a delivery). */
  async targets(teamId: number, ids: readonly number[]): Promise<{ id: number; name: string; url: string; secret: string; slackMode: boolean }[]> {
    if (ids.length === 0) return [];
    const wanted = new Set(ids);
    return (await this.deps.integrations.list(teamId))
      .filter((r) => wanted.has(r.id))
      .map((r) => ({ id: r.id, name: r.name, url: this.deps.secrets.decrypt(r.url), secret: this.deps.secrets.decrypt(r.webhookSecret), slackMode: r.slackMode }));
  }

  /** Checks that every id is an integration of the team (400 naming the first that is not). */
  async checkIds(teamId: number, ids: readonly number[], path: string): Promise<number[]> {
    const known = new Set((await this.deps.integrations.list(teamId)).map((r) => r.id));
    ids.forEach((id, i) => {
      if (!known.has(id)) throw ValidationError.field(`${path}.${i}`, 'is not an integration of this team');
    });
    return [...new Set(ids)];
  }

  /**
   * `plotline rotate-key`: every integration's URL and signing key re-encrypted under `newKey`;
   * envelopes already under it are left alone, so a second run counts 0.
   */
  async rotateEncryptionKey(newKey: Buffer): Promise<number> {
    const next = new SecretBox(newKey);
    return this.deps.integrations.reencryptAll((envelope) => (SecretBox.keyIdOf(envelope) === next.keyId ? envelope : next.encrypt(this.deps.secrets.decrypt(envelope))));
  }

  private async find(teamId: number, id: number): Promise<IntegrationRecord> {
    const record = await this.deps.integrations.find(teamId, id);
    if (!record) throw new NotFoundError('Integration');
    return record;
  }

  private checkType(type: string): IntegrationType {
    if (isIntegrationType(type)) return type;
    if (type === 'slack') {
      throw new BadRequestError(
        'Slack app integrations are not supported; add a Slack incoming webhook as a webhook integration with config.slackMode true',
        'INTEGRATION_TYPE_UNSUPPORTED',
      );
    }
    throw ValidationError.field('body.type', `must be one of: ${INTEGRATION_TYPES.join(', ')}`);
  }

  private checkName(name: string): string {
    const trimmed = name.trim();
    if (trimmed === '') throw ValidationError.field('body.name', 'must not be empty');
    return trimmed;
  }

  /** An absolute http(s) URL the address policy allows; the masked URL sent back keeps the stored one. */
  private async checkUrl(input: string, stored: string | null): Promise<string> {
    let url: string;
    try {
      url = restoreWebhookUrl(input.trim(), stored, 'body.config.url');
    } catch (error) {
      if (error instanceof MaskWithoutValue) throw ValidationError.field(error.path, `is "${MASK}" but no stored URL exists to keep`);
      throw error;
    }
    if (url === stored) return url;
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw ValidationError.field('body.config.url', 'must be an absolute http(s) URL');
    await this.deps.notifier.checkTarget(url, 'body.config.url');
    return url;
  }

  private view(record: IntegrationRecord): IntegrationView {
    return {
      id: record.id,
      team_id: record.team_id,
      name: record.name,
      type: isIntegrationType(record.type) ? record.type : 'webhook',
      config: { url: maskWebhookUrl(this.deps.secrets.decrypt(record.url)), slackMode: record.slackMode },
      webhookSecret: MASK,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }
}
