import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../crypto/secrets.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { can, type Action, type Membership } from '../../platform/authorization.js';
import { MASK, MaskWithoutValue, maskWebhookUrl, restoreWebhookUrl } from '../../redaction/index.js';
import { isHttpUrl, type ChartsService, type ProjectsService, type SnapshotScheduleView } from '../dashboards/index.js';
import { parseFilters, parseRuntimeVariables } from '../data/index.js';
import type { AlertNotifier } from './alerts-notifier.js';
import type { DeliveriesRepository, SubscriptionFields, SubscriptionRecord, SubscriptionRun } from './deliveries-repository.js';
import type { DeliveryLinks } from './deliveries-links.js';
import type { DeliveryRunner } from './deliveries-runner.js';
import { weekdayName } from '../../runtime/scheduler/due.js';
import { ELAPSED_FREQUENCIES, isElapsedFrequency } from './deliveries-frequencies.js';
import { deliveryDue, parseSchedule, type DeliveryScheduleInput } from './deliveries-schedule.js';
import type { CreateSubscriptionInput, DeliveryStatusView, SubscriptionView, UpdateSubscriptionInput } from './deliveries-schemas.js';
import type { IntegrationsService } from './integrations-service.js';

export interface DeliveryLimits {
  /** Targets (e-mails, Slack webhooks, integrations, the webhook) of one subscription. */
  maxRecipients: number;
  /** Subscriptions of one team. */
  maxPerTeam: number;
}

export interface DeliveriesDeps {
  deliveries: DeliveriesRepository;
  projects: ProjectsService;
  charts: ChartsService;
  access: AccessService;
  secrets: SecretBox;
  notifier: AlertNotifier;
  integrations: IntegrationsService;
  runner: DeliveryRunner;
  links: DeliveryLinks;
  limits: DeliveryLimits;
  clock: () => Date;
}

/** Where a route found the subscription: a dashboard's, or one chart's of it. */
export interface SubscriptionScope {
  projectId: number;
  chartId?: number;
}

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;
const SNAPSHOT_ORIGIN = 'snapshotSchedule';
/** The frequencies of Chartbrew's snapshot dialog. */
const SNAPSHOT_FREQUENCIES = ['daily', 'weekly', ...ELAPSED_FREQUENCIES] as const;

/**
 * Subscriptions: scheduled deliveries of a dashboard or one of its charts. Editors of the
 * dashboard write them, its viewers read them, anyone outside the team gets a 404. Secrets (Slack
 * and webhook URLs, the signing key) are encrypted at rest and answered masked.
 */
export class DeliveriesService {
  constructor(private readonly deps: DeliveriesDeps) {}

  async list(actor: Actor, scope: SubscriptionScope): Promise<SubscriptionView[]> {
    const { teamId, membership, write } = await this.authorize(actor, scope, 'read');
    const reader = await this.reader(teamId, membership, write);
    return (await this.deps.deliveries.list(teamId, scope.projectId, scope.chartId)).map((s) => this.view(s, reader));
  }

  /** What a delivery of this dashboard can use: email (SMTP), Slack, the team's recipient setting. */
  async status(actor: Actor, projectId: number): Promise<DeliveryStatusView> {
    const { teamId } = await this.authorize(actor, { projectId }, 'read');
    return {
      email: this.deps.notifier.emailConfigured,
      slack: true,
      allowExternalRecipients: (await this.deps.access.teamSettings(teamId))?.allowExternalRecipients === true,
      maxRecipients: this.deps.limits.maxRecipients,
    };
  }

  async get(actor: Actor, scope: SubscriptionScope, id: number): Promise<SubscriptionView> {
    const { teamId, membership, write } = await this.authorize(actor, scope, 'read');
    return this.view(await this.find(teamId, scope, id), await this.reader(teamId, membership, write));
  }

  async create(actor: Actor, scope: SubscriptionScope, input: CreateSubscriptionInput): Promise<SubscriptionView> {
    const chartId = scope.chartId ?? input.chart_id ?? null;
    const { teamId } = await this.authorize(actor, { projectId: scope.projectId, ...(chartId !== null ? { chartId } : {}) }, 'write');
    return this.createIn(teamId, scope.projectId, chartId, actor.userId, input);
  }

  private async createIn(teamId: number, projectId: number, chartId: number | null, userId: number | null, input: CreateSubscriptionInput, origin?: string): Promise<SubscriptionView> {
    if ((await this.deps.deliveries.countByTeam(teamId)) >= this.deps.limits.maxPerTeam) {
      throw new BadRequestError(`This team has ${this.deps.limits.maxPerTeam} subscriptions, the most it may have (PLOTLINE_TEAM_MAX_SUBSCRIPTIONS); delete one first`, 'SUBSCRIPTION_LIMIT');
    }
    const { fields, secret } = await this.prepare(teamId, chartId, { ...input, format: input.format ?? 'png' }, undefined);
    const created = await this.deps.deliveries.create(
      { teamId, projectId, chartId, createdBy: userId, ...(origin ? { origin } : {}) },
      { ...fields, schedule: fields.schedule!, format: fields.format ?? 'png' },
      // The scheduler's clock: a subscription waits for its first slot after this.
      this.deps.clock().toISOString(),
    );
    return { ...this.view(created), ...(secret ? { webhookSecret: secret } : {}) };
  }

  async update(actor: Actor, scope: SubscriptionScope, id: number, input: UpdateSubscriptionInput): Promise<SubscriptionView> {
    const { teamId } = await this.authorize(actor, scope, 'write');
    const current = await this.find(teamId, scope, id);
    const { fields, secret } = await this.prepare(teamId, current.chart_id, input, current);
    const updated = await this.deps.deliveries.update(teamId, id, fields);
    if (!updated) throw new NotFoundError('Subscription');
    return { ...this.view(updated), ...(secret ? { webhookSecret: secret } : {}) };
  }

  async delete(actor: Actor, scope: SubscriptionScope, id: number): Promise<void> {
    const { teamId } = await this.authorize(actor, scope, 'write');
    await this.find(teamId, scope, id);
    if (!(await this.deps.deliveries.delete(teamId, id))) throw new NotFoundError('Subscription');
  }

  /** Send now: the whole delivery (refresh, draw, send with its retries), answered with its run. */
  async sendNow(actor: Actor, scope: SubscriptionScope, id: number): Promise<SubscriptionRun> {
    const { teamId } = await this.authorize(actor, scope, 'write');
    const sub = await this.find(teamId, scope, id);
    return (await this.deps.runner.deliver(sub, 'manual', null)).run;
  }

  async runs(actor: Actor, scope: SubscriptionScope, id: number, page: { limit: number; offset: number }) {
    const { teamId, membership, write } = await this.authorize(actor, scope, 'read');
    await this.find(teamId, scope, id);
    const reader = await this.reader(teamId, membership, write);
    const found = await this.deps.deliveries.runs(teamId, id, page);
    // An e-mail outcome names its address: a viewer sees their own, the others as "another recipient".
    const runs = reader.manages
      ? found.runs
      : found.runs.map((run) => ({ ...run, deliveries: run.deliveries.map((d) => (d.medium === 'email' && d.target !== reader.email ? { ...d, target: ANOTHER_RECIPIENT } : d)) }));
    return { ...found, runs, ...page };
  }

  /** The unsubscribe link: which subscription and address it names (no login: the signed token is the right). */
  async unsubscribeTarget(token: string): Promise<{ subscriptionId: number; email: string; title: string } | undefined> {
    const named = this.deps.links.verify(token);
    if (!named) return undefined;
    const sub = await this.deps.deliveries.findAnyTeam(named.subscriptionId);
    if (!sub) return undefined;
    const dashboard = await this.deps.projects.loadDashboard(sub.team_id, sub.project_id);
    return { ...named, title: dashboard?.name ?? 'a dashboard' };
  }

  /** Takes the token's address off the token's subscription, and nothing else. */
  async unsubscribe(token: string): Promise<{ email: string; title: string } | undefined> {
    const target = await this.unsubscribeTarget(token);
    if (!target) return undefined;
    await this.deps.deliveries.removeRecipient(target.subscriptionId, target.email);
    return target;
  }

  /**
   * Chartbrew's `snapshotSchedule` on `PUT /project/{id}` (the caller may update the dashboard):
   * written onto the dashboard's one subscription of that origin (made, changed, or deleted by
   * null or ""): `frequency` (with `frequencyNumber` for `every_x_*`), `time`, `dayOfWeek`,
   * `daysOfWeek`, `timezone`, e-mail to `customEmails` when `mediums.email.enabled`, and
   * `integrations[].integration_id`.
   */
  async applySnapshotSchedule(actor: Actor, project: { id: number; team_id: number; timezone: string | null }, raw: unknown): Promise<void> {
    const existing = await this.deps.deliveries.findByOrigin(project.team_id, project.id, SNAPSHOT_ORIGIN);
    if (raw === null || raw === '' || (typeof raw === 'object' && Object.keys(raw as object).length === 0)) {
      if (existing) await this.deps.deliveries.delete(project.team_id, existing.id);
      return;
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) throw ValidationError.field('body.snapshotSchedule', 'must be an object or null');
    const s = raw as {
      frequency?: unknown; frequencyNumber?: unknown; time?: { hour?: unknown; minute?: unknown }; dayOfWeek?: unknown; daysOfWeek?: unknown; timezone?: unknown;
      mediums?: { email?: { enabled?: unknown } }; customEmails?: unknown; integrations?: unknown; theme?: unknown;
    };
    const frequency = s.frequency;
    if (typeof frequency !== 'string' || !(SNAPSHOT_FREQUENCIES as readonly string[]).includes(frequency)) {
      throw ValidationError.field('body.snapshotSchedule.frequency', `must be one of ${SNAPSHOT_FREQUENCIES.join(', ')} (use the subscription routes for weekdays and monthly)`);
    }
    // Chartbrew's dialog sends `time` with every_x_days too: elapsed time counts from the last delivery, so it is not kept.
    const elapsed = isElapsedFrequency(frequency);
    const asked: DeliveryScheduleInput = {
      frequency,
      ...(elapsed && (typeof s.frequencyNumber === 'number' || typeof s.frequencyNumber === 'string') ? { frequencyNumber: s.frequencyNumber } : {}),
      ...(elapsed ? {} : { time: { ...(typeof s.time?.hour === 'number' ? { hour: s.time.hour } : {}), ...(typeof s.time?.minute === 'number' ? { minute: s.time.minute } : {}) } }),
      timezone: typeof s.timezone === 'string' ? s.timezone : (project.timezone ?? 'UTC'),
      ...(frequency === 'weekly' && (typeof s.dayOfWeek === 'number' || typeof s.dayOfWeek === 'string') ? { dayOfWeek: s.dayOfWeek } : {}),
      ...(frequency === 'daily' && Array.isArray(s.daysOfWeek) ? { daysOfWeek: s.daysOfWeek as (number | string)[] } : {}),
    };
    // Parsed here so that a 400 names Chartbrew's field (`body.snapshotSchedule.frequencyNumber`).
    const schedule = parseSchedule(asked, 'body.snapshotSchedule');
    const emails = s.mediums?.email?.enabled === true && Array.isArray(s.customEmails) ? s.customEmails.filter((e): e is string => typeof e === 'string') : [];
    // Chartbrew's integrations list keeps the ones switched off too (`enabled: false`).
    const integrations = Array.isArray(s.integrations)
      ? s.integrations
          .filter((i) => (i as { enabled?: unknown })?.enabled !== false)
          .map((i) => (i as { integration_id?: unknown })?.integration_id)
          .filter((id): id is number => typeof id === 'number')
      : [];
    const theme = s.theme === 'dark' || s.theme === 'light' ? (s.theme as 'dark' | 'light') : undefined;
    const input = { schedule, recipients: emails, integrations, format: 'png' as const, ...(theme ? { theme } : {}) };
    if (existing) {
      const { fields } = await this.prepare(project.team_id, null, input, existing, 'body.snapshotSchedule');
      await this.deps.deliveries.update(project.team_id, existing.id, fields);
    } else {
      await this.createIn(project.team_id, project.id, null, actor.userId, input, SNAPSHOT_ORIGIN);
    }
  }

  /**
   * The dashboard's subscription of origin `snapshotSchedule` in the shape Chartbrew's schedule
   * dialog reads back (`GET /project/{id}`), or null when it has none.
   */
  async readSnapshotSchedule(project: { id: number; team_id: number }, membership: Membership): Promise<SnapshotScheduleView | null> {
    const sub = await this.deps.deliveries.findByOrigin(project.team_id, project.id, SNAPSHOT_ORIGIN);
    if (!sub) return null;
    const reader = await this.reader(project.team_id, membership, 'project:update');
    const recipients = visibleRecipients(sub.recipients, reader);
    const schedule = sub.schedule;
    return {
      frequency: schedule.frequency,
      ...('frequencyNumber' in schedule ? { frequencyNumber: schedule.frequencyNumber } : {}),
      ...('time' in schedule ? { time: schedule.time } : {}),
      timezone: schedule.timezone,
      ...('dayOfWeek' in schedule && schedule.dayOfWeek !== undefined ? { dayOfWeek: weekdayName(schedule.dayOfWeek) } : {}),
      ...('daysOfWeek' in schedule && schedule.daysOfWeek !== undefined ? { daysOfWeek: schedule.daysOfWeek } : {}),
      theme: sub.theme,
      mediums: { email: { enabled: sub.recipients.length > 0 } },
      customEmails: recipients,
      integrations: sub.integration_ids.map((id) => ({ integration_id: id, enabled: true })),
      active: sub.active,
      subscription_id: sub.id,
    };
  }

  /**
   * `plotline rotate-key`: every subscription's Slack URLs, webhook URL and signing key re-encrypted
   * under `newKey`; envelopes already under it are left alone, so a second run counts 0.
   */
  async rotateEncryptionKey(newKey: Buffer): Promise<number> {
    const next = new SecretBox(newKey);
    return this.deps.deliveries.reencryptAll((envelope) => (SecretBox.keyIdOf(envelope) === next.keyId ? envelope : next.encrypt(this.deps.secrets.decrypt(envelope))));
  }

  private async authorize(actor: Actor, scope: SubscriptionScope, access: 'read' | 'write'): Promise<{ teamId: number; membership: Membership; write: Action }> {
    if (scope.chartId !== undefined) {
      const { project, membership } = await this.deps.charts.authorize(actor, scope.projectId, scope.chartId, access === 'read' ? 'chart:read' : 'chart:write');
      return { teamId: project.team_id, membership, write: 'chart:write' };
    }
    const { project, membership } = await this.deps.projects.authorize(actor, scope.projectId, access === 'read' ? 'project:read' : 'project:update');
    return { teamId: project.team_id, membership, write: 'project:update' };
  }

  /**
   * Who reads a subscription: those who may change it see its recipients; the others (viewers)
   * only their own address among them, as the members list shows project roles only their own row
   * (decision 0032): a dashboard's viewers do not learn who else receives it.
   */
  private async reader(teamId: number, membership: Membership, write: Action): Promise<Reader> {
    if (can(membership, write)) return { manages: true };
    return { manages: false, email: await this.deps.access.memberEmail(teamId, membership.userId) };
  }

  private async find(teamId: number, scope: SubscriptionScope, id: number): Promise<SubscriptionRecord> {
    const sub = await this.deps.deliveries.find(teamId, scope.projectId, id);
    if (!sub || (scope.chartId !== undefined && sub.chart_id !== scope.chartId)) throw new NotFoundError('Subscription');
    return sub;
  }

  /** Validates a body against the team, the chart and the server (400 naming the field). */
  private async prepare(
    teamId: number,
    chartId: number | null,
    input: UpdateSubscriptionInput,
    current: SubscriptionRecord | undefined,
    base = 'body',
  ): Promise<{ fields: SubscriptionFields; secret?: string }> {
    const fields: SubscriptionFields = {};
    if (input.name !== undefined) fields.name = input.name === null ? null : input.name.trim() || null;
    if (input.schedule !== undefined) fields.schedule = parseSchedule(input.schedule, `${base}.schedule`);
    if (input.theme !== undefined) fields.theme = input.theme;
    if (input.active !== undefined) fields.active = input.active;

    const format = input.format ?? current?.format ?? 'png';
    if (input.format !== undefined) fields.format = input.format;
    if (format === 'pdf' && chartId !== null) throw ValidationError.field(`${base}.format`, 'pdf is for a dashboard subscription; a chart is sent as png or csv');
    if (format === 'csv') {
      if (chartId === null) throw ValidationError.field(`${base}.format`, 'csv is for a subscription of one table chart');
      const chart = (await this.deps.charts.loadForRun(teamId, chartId))?.chart;
      if (chart?.type !== 'table') throw ValidationError.field(`${base}.format`, `csv is for a table chart; this one is a ${chart?.type ?? 'chart without a type'}`);
    }

    if (input.filters !== undefined) {
      if (input.filters === null) fields.filters = null;
      else {
        parseFilters(input.filters.filters ?? [], `${base}.filters.filters`);
        parseRuntimeVariables(input.filters.variables ?? {}, `${base}.filters.variables`);
        fields.filters = { filters: input.filters.filters ?? [], variables: input.filters.variables ?? {} };
      }
    }

    const recipients = input.recipients !== undefined ? await this.checkRecipients(teamId, input.recipients, `${base}.recipients`) : (current?.recipients ?? []);
    if (input.recipients !== undefined) fields.recipients = recipients;
    // Checked when addresses are written, so that a subscription can still be paused after SMTP went away.
    if (input.recipients !== undefined && recipients.length > 0 && !this.deps.notifier.emailConfigured) {
      throw new BadRequestError('E-mail recipients need an SMTP server: set PLOTLINE_SMTP_URL on the server, or use Slack or a webhook', 'SMTP_NOT_CONFIGURED');
    }

    const storedSlack = current?.slackUrls ? (JSON.parse(this.deps.secrets.decrypt(current.slackUrls)) as string[]) : [];
    let slack = storedSlack;
    if (input.slackWebhooks !== undefined) {
      slack = [];
      for (const [i, raw] of input.slackWebhooks.entries()) slack.push(await this.checkUrl(raw, storedSlack, `${base}.slackWebhooks.${i}`));
      fields.slackUrls = slack.length > 0 ? this.deps.secrets.encrypt(JSON.stringify(slack)) : null;
    }

    const integrations = input.integrations !== undefined ? await this.deps.integrations.checkIds(teamId, input.integrations, `${base}.integrations`) : (current?.integration_ids ?? []);
    if (input.integrations !== undefined) fields.integration_ids = integrations;

    let secret: string | undefined;
    let hasWebhook = current?.webhookUrl != null;
    if (input.webhook !== undefined) {
      if (input.webhook === null) {
        fields.webhookUrl = null;
        hasWebhook = false;
      } else {
        const stored = current?.webhookUrl ? this.deps.secrets.decrypt(current.webhookUrl) : null;
        const url = await this.checkUrl(input.webhook.url, stored === null ? [] : [stored], `${base}.webhook.url`);
        if (url !== stored) fields.webhookUrl = this.deps.secrets.encrypt(url);
        hasWebhook = true;
        // The first webhook gets its signing key now, shown in this answer only.
        if (!current?.webhookSecret) {
          secret = randomBytes(32).toString('hex');
          fields.webhookSecret = this.deps.secrets.encrypt(secret);
        }
      }
    }

    const count = recipients.length + slack.length + integrations.length + (hasWebhook ? 1 : 0);
    if (count > this.deps.limits.maxRecipients) {
      throw new BadRequestError(`A subscription may have at most ${this.deps.limits.maxRecipients} recipients (PLOTLINE_SUBSCRIPTION_MAX_RECIPIENTS); this one would have ${count}`, 'SUBSCRIPTION_RECIPIENT_LIMIT');
    }
    if (count === 0) throw ValidationError.field(`${base}.recipients`, 'a subscription needs at least one recipient, Slack webhook, integration or webhook');
    return secret ? { fields, secret } : { fields };
  }

  private async checkRecipients(teamId: number, input: readonly string[], path: string): Promise<string[]> {
    const normalised = [...new Set(input.map((r) => r.trim().toLowerCase()))];
    const members = await this.deps.access.memberEmails(teamId);
    const external = (await this.deps.access.teamSettings(teamId))?.allowExternalRecipients === true;
    normalised.forEach((email, i) => {
      if (!EMAIL.test(email)) throw ValidationError.field(`${path}.${i}`, 'is not an e-mail address');
      if (!external && !members.has(email)) {
        throw ValidationError.field(`${path}.${i}`, "is not the e-mail of a member of this team (a team owner can allow other addresses with the team's allowExternalRecipients)");
      }
    });
    return normalised;
  }

  /** An absolute http(s) URL the address policy allows; a masked one sent back keeps the stored one it names. */
  private async checkUrl(input: string, stored: readonly string[], path: string): Promise<string> {
    const trimmed = input.trim();
    if (trimmed.includes(MASK)) {
      for (const candidate of stored) {
        try {
          return restoreWebhookUrl(trimmed, candidate, path);
        } catch (error) {
          if (!(error instanceof MaskWithoutValue)) throw error;
        }
      }
      throw ValidationError.field(path, `is "${MASK}" but no stored URL matches it`);
    }
    if (!isHttpUrl(trimmed)) throw ValidationError.field(path, 'must be an absolute http(s) URL');
    await this.deps.notifier.checkTarget(trimmed, path);
    return trimmed;
  }

  private view(sub: SubscriptionRecord, reader: Reader = { manages: true }): SubscriptionView {
    const slack = sub.slackUrls ? (JSON.parse(this.deps.secrets.decrypt(sub.slackUrls)) as string[]) : [];
    const due = sub.active ? deliveryDue(sub.schedule, { lastSentAt: sub.lastSentAt, createdAt: sub.createdAt, now: this.deps.clock() }) : null;
    return {
      id: sub.id,
      project_id: sub.project_id,
      chart_id: sub.chart_id,
      name: sub.name,
      schedule: sub.schedule,
      format: sub.format,
      theme: sub.theme,
      filters: sub.filters as SubscriptionView['filters'],
      recipients: visibleRecipients(sub.recipients, reader),
      slackWebhooks: slack.map(maskWebhookUrl),
      integrations: sub.integration_ids,
      webhook: sub.webhookUrl ? { url: maskWebhookUrl(this.deps.secrets.decrypt(sub.webhookUrl)) } : null,
      ...(sub.webhookSecret ? { webhookSecret: MASK } : {}),
      active: sub.active,
      origin: sub.origin,
      lastSentAt: sub.lastSentAt,
      nextAt: due?.nextAt ?? null,
      createdAt: sub.createdAt,
      updatedAt: sub.updatedAt,
    };
  }
}

/** Who reads a subscription: its managers, or a viewer with their own address (if any). */
type Reader = { manages: true } | { manages: false; email: string | undefined };

/** What an e-mail outcome of a run says to a viewer for an address not theirs. */
const ANOTHER_RECIPIENT = 'another recipient';

function visibleRecipients(recipients: readonly string[], reader: Reader): string[] {
  return reader.manages ? [...recipients] : recipients.filter((email) => email === reader.email);
}
