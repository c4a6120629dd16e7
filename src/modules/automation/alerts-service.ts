import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { SecretBox } from '../../crypto/secrets.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { MASK } from '../../redaction/index.js';
import { isHttpUrl, type Chart, type ChartsService } from '../dashboards/index.js';
import type { AlertChecker } from './refreshes-service.js';
import { evaluate, type AlertRules, type AlertType } from './alerts-evaluate.js';
import type { AlertNotifier } from './alerts-notifier.js';
import type { AlertFields, AlertMediums, AlertRecord, AlertsRepository, Delivery } from './alerts-repository.js';
import type { AlertView, CreateAlertInput, UpdateAlertInput } from './alerts-schemas.js';
import type { AlertIntegration, IntegrationsService } from './integrations-service.js';
import type { DeliveryPictures } from './deliveries-pictures.js';
import { slackMessage } from './deliveries-runner.js';

/** Chart types whose chartData has no numeric series to check. */
const UNSUPPORTED_CHART_TYPES = new Set(['markdown', 'table', 'matrix']);

export interface AlertsDeps {
  alerts: AlertsRepository;
  charts: ChartsService;
  access: AccessService;
  secrets: SecretBox;
  notifier: AlertNotifier;
  integrations: IntegrationsService;
  clock: () => Date;
  logger: Logger;
  /** The chart's picture at the moment an alert triggers (email: inline PNG; Slack and webhooks: a signed link). */
  pictures?: DeliveryPictures;
}

/** A signed picture link in an alert lives a week. */
const ALERT_IMAGE_SECONDS = 7 * 86_400;

/**
 * Chart alerts: CRUD for editors of the chart, and the check after every refresh. A triggered
 * alert notifies its webhook (signed), its recipients by email and its integrations, at most once
 * per `timeout`, and every notification is kept as an event.
 */
export class AlertsService implements AlertChecker {
  constructor(private readonly deps: AlertsDeps) {}

  async list(actor: Actor, projectId: number, chartId: number): Promise<AlertView[]> {
    await this.deps.charts.authorize(actor, projectId, chartId, 'chart:write');
    const alerts = await this.deps.alerts.list(chartId);
    const links = await this.deps.integrations.linksOf(alerts.map((a) => a.id));
    return alerts.map((a) => this.view(a, links.get(a.id) ?? []));
  }

  /** The mediums an alert of this chart may use on this server (for the same callers as the alerts). */
  async mediums(actor: Actor, projectId: number, chartId: number): Promise<{ email: { available: boolean }; webhook: { available: boolean } }> {
    await this.deps.charts.authorize(actor, projectId, chartId, 'chart:write');
    return { email: { available: this.deps.notifier.emailConfigured }, webhook: { available: true } };
  }

  async get(actor: Actor, projectId: number, chartId: number, alertId: number): Promise<AlertView> {
    await this.deps.charts.authorize(actor, projectId, chartId, 'chart:write');
    const alert = await this.deps.alerts.find(chartId, alertId);
    if (!alert) throw new NotFoundError('Alert');
    return { ...(await this.viewOf(alert)), events: await this.deps.alerts.events(alert.id) };
  }

  async create(actor: Actor, projectId: number, chartId: number, input: CreateAlertInput): Promise<AlertView> {
    const { project, chart } = await this.deps.charts.authorize(actor, projectId, chartId, 'chart:write');
    const fields = await this.prepare(project.team_id, chart, input, undefined);
    const links = input.alertIntegrations && (await this.deps.integrations.checkLinks(project.team_id, input.alertIntegrations, 'body.alertIntegrations'));
    const secret = fields.mediums?.webhook?.enabled ? randomBytes(32).toString('hex') : undefined;
    const created = await this.deps.alerts.create(
      { teamId: project.team_id, projectId, chartId },
      { ...fields, type: input.type, ...(secret ? { webhookSecret: this.deps.secrets.encrypt(secret) } : {}) },
    );
    if (links) await this.deps.integrations.replaceLinks(created.id, links);
    return { ...(await this.viewOf(created)), ...(secret ? { webhookSecret: secret } : {}) };
  }

  async update(actor: Actor, projectId: number, chartId: number, alertId: number, input: UpdateAlertInput): Promise<AlertView> {
    const { project, chart } = await this.deps.charts.authorize(actor, projectId, chartId, 'chart:write');
    const current = await this.deps.alerts.find(chartId, alertId);
    if (!current) throw new NotFoundError('Alert');
    const fields = await this.prepare(project.team_id, chart, input, current);
    const links = input.alertIntegrations && (await this.deps.integrations.checkLinks(project.team_id, input.alertIntegrations, 'body.alertIntegrations'));
    // A webhook turned on for the first time gets its key now, shown in this answer only.
    const secret = fields.mediums?.webhook?.enabled && current.webhookSecret === null ? randomBytes(32).toString('hex') : undefined;
    const updated = await this.deps.alerts.update(chartId, alertId, { ...fields, ...(secret ? { webhookSecret: this.deps.secrets.encrypt(secret) } : {}) });
    if (!updated) throw new NotFoundError('Alert');
    if (links) await this.deps.integrations.replaceLinks(updated.id, links);
    return { ...(await this.viewOf(updated)), ...(secret ? { webhookSecret: secret } : {}) };
  }

  async delete(actor: Actor, projectId: number, chartId: number, alertId: number): Promise<void> {
    await this.deps.charts.authorize(actor, projectId, chartId, 'chart:write');
    if (!(await this.deps.alerts.delete(chartId, alertId))) throw new NotFoundError('Alert');
  }

  /** After a refresh: evaluate the chart's active alerts on its fresh data and notify. */
  async check(input: { teamId: number; projectId: number; chartId: number; chartData: unknown; runId: number }): Promise<void> {
    const alerts = (await this.deps.alerts.list(input.chartId)).filter((a) => a.active && a.team_id === input.teamId);
    if (alerts.length === 0) return;
    const chart = (await this.deps.charts.loadForRun(input.teamId, input.chartId))?.chart;
    if (!chart) return;
    for (const alert of alerts) {
      const index = alert.cdc_id ? Math.max(0, chart.ChartDatasetConfigs.findIndex((c) => c.id === alert.cdc_id)) : 0;
      const result = evaluate(alert.type, alert.rules, input.chartData, index);
      if (!result.triggered) continue;
      const now = this.deps.clock();
      if (alert.lastTriggeredAt !== null && now.getTime() - Date.parse(alert.lastTriggeredAt) < alert.timeout * 1000) continue;
      // One process notifies: the first to move lastTriggeredAt from what it read.
      if (!(await this.deps.alerts.markTriggered(alert.id, alert.lastTriggeredAt, now.toISOString(), alert.type === 'milestone'))) continue;
      const deliveries = await this.deliver(alert, chart, result.value, result.message, now, input.runId);
      await this.deps.alerts.insertEvent({ alert_id: alert.id, chart_id: chart.id, run_id: input.runId, value: result.value, message: result.message, deliveries, createdAt: now.toISOString() });
      this.deps.logger.info({ alertId: alert.id, chartId: chart.id, deliveries: deliveries.map((d) => `${d.medium}:${d.ok}`) }, 'alert triggered');
    }
  }

  /**
   * Sends the alert's notification now, marked as a test (`event: "alert.test"`, no value), through
   * every medium it has, and answers what each delivery did. Nothing is kept as an event.
   */
  async test(actor: Actor, projectId: number, chartId: number, alertId: number): Promise<{ deliveries: Delivery[] }> {
    const { chart } = await this.deps.charts.authorize(actor, projectId, chartId, 'chart:write');
    const alert = await this.deps.alerts.find(chartId, alertId);
    if (!alert) throw new NotFoundError('Alert');
    return { deliveries: await this.deliver(alert, chart, null, 'Test notification (no threshold was crossed)', this.deps.clock(), null, 'alert.test') };
  }

  private async deliver(alert: AlertRecord, chart: Chart, value: number | null, message: string, at: Date, runId: number | null, event = 'alert.triggered'): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    const title = alert.name ?? chart.name ?? `Chart ${chart.id}`;
    const picture = await this.picture(alert, chart);
    const payload = { ...this.payload(alert, chart, value, message, at, runId, event), imageUrl: picture.imageUrl };
    const webhook = alert.mediums.webhook;
    if (webhook?.enabled && webhook.url && alert.webhookSecret) {
      deliveries.push(await this.deps.notifier.webhook(webhook.url, this.deps.secrets.decrypt(alert.webhookSecret), payload));
    }
    const slack = picture.imageUrl ? slackMessage({ title, freshness: message, imageUrl: picture.imageUrl }) : undefined;
    deliveries.push(...(await this.deps.integrations.notify(alert.team_id, alert.id, { payload, text: `${title}: ${message}`, ...(slack ? { slack } : {}) })));
    // Someone who has left the team since the alert was written gets nothing.
    const members = alert.mediums.email?.enabled ? await this.deps.access.memberEmails(alert.team_id) : new Set<string>();
    const recipients = alert.recipients.filter((email) => members.has(email));
    if (alert.mediums.email?.enabled && recipients.length > 0) {
      const text = `${message}.\n\nChart: ${chart.name ?? chart.id} (dashboard ${chart.project_id})\nAlert: ${title} (${alert.type})\nAt: ${at.toISOString()}\n`;
      const extras = picture.png
        ? {
            html: `<p>${escapeHtml(message)}.</p><p><img src="cid:chart" alt="${escapeHtml(title)}" style="max-width:100%"></p><p>Chart: ${escapeHtml(chart.name ?? String(chart.id))}<br>Alert: ${escapeHtml(title)} (${alert.type})<br>At: ${at.toISOString()}</p>`,
            attachments: [{ filename: 'chart.png', content: picture.png, contentType: 'image/png', cid: 'chart' }],
          }
        : undefined;
      deliveries.push(await this.deps.notifier.email(recipients, `[Plotline] ${title}: ${message}`, text, extras));
    }
    return deliveries;
  }

  /** The chart as it is now (its data just checked), drawn once for every medium; an alert still goes without it. */
  private async picture(alert: AlertRecord, chart: Chart): Promise<{ png?: Buffer; imageUrl: string | null }> {
    const pictures = this.deps.pictures;
    if (!pictures) return { imageUrl: null };
    const scope = { teamId: alert.team_id, projectId: chart.project_id, chartId: chart.id };
    let imageUrl: string | null = null;
    try {
      imageUrl = pictures.signImageLink(scope, { format: 'png', expiresInSeconds: ALERT_IMAGE_SECONDS }) || null;
    } catch (err) {
      this.deps.logger.warn({ err, alertId: alert.id }, 'alert picture link could not be signed');
    }
    if (!alert.mediums.email?.enabled) return { imageUrl };
    try {
      return { png: (await pictures.chartPicture(scope, { format: 'png' })).body, imageUrl };
    } catch (err) {
      this.deps.logger.warn({ err, alertId: alert.id }, 'alert picture could not be drawn; the e-mail goes without it');
      return { imageUrl };
    }
  }

  /** What a webhook (the alert's own, or a webhook integration) receives, signed. */
  private payload(alert: AlertRecord, chart: Chart, value: number | null, message: string, at: Date, runId: number | null, event: string) {
    return {
      event,
      alert: { id: alert.id, name: alert.name, type: alert.type, rules: alert.rules },
      chart: { id: chart.id, name: chart.name, project_id: chart.project_id },
      value,
      message,
      run_id: runId,
      triggeredAt: at.toISOString(),
    };
  }

  private async viewOf(alert: AlertRecord): Promise<AlertView> {
    return this.view(alert, (await this.deps.integrations.linksOf([alert.id])).get(alert.id) ?? []);
  }

  private view(alert: AlertRecord, links: AlertIntegration[]): AlertView {
    const mediums: AlertView['mediums'] = {};
    if (alert.mediums.email) mediums.email = { enabled: alert.mediums.email.enabled };
    if (alert.mediums.webhook) mediums.webhook = { enabled: alert.mediums.webhook.enabled, url: alert.mediums.webhook.url };
    return {
      id: alert.id,
      chart_id: alert.chart_id,
      project_id: alert.project_id,
      cdc_id: alert.cdc_id,
      name: alert.name,
      type: alert.type,
      rules: alert.rules,
      recipients: alert.recipients,
      mediums,
      timeout: alert.timeout,
      active: alert.active,
      lastTriggeredAt: alert.lastTriggeredAt,
      createdAt: alert.createdAt,
      updatedAt: alert.updatedAt,
      ...(alert.webhookSecret ? { webhookSecret: MASK } : {}),
      AlertIntegrations: links,
    };
  }

  /** Validates a body against the chart, the team and the server's mediums; only known keys survive. */
  private async prepare(teamId: number, chart: Chart, input: UpdateAlertInput, current: AlertRecord | undefined): Promise<AlertFields> {
    if (UNSUPPORTED_CHART_TYPES.has(chart.type ?? '')) {
      throw new BadRequestError(`Alerts need a chart with numeric values; a ${chart.type} chart has none`, 'ALERT_UNSUPPORTED_CHART');
    }
    const type: AlertType = input.type ?? current!.type;
    const rules: AlertRules = input.rules ? { ...(input.rules.value !== undefined ? { value: Number(input.rules.value) } : {}) } : (current?.rules ?? {});
    if (type !== 'anomaly' && typeof rules.value !== 'number') throw ValidationError.field('body.rules.value', `is required for a ${type} alert`);
    if (type === 'anomaly' && rules.value !== undefined && rules.value <= 0) throw ValidationError.field('body.rules.value', 'must be a positive number of standard deviations');

    const fields: AlertFields = { type, rules };
    if (input.name !== undefined) fields.name = input.name === null ? null : input.name.trim() || null;
    if (input.timeout !== undefined) fields.timeout = input.timeout;
    if (input.active !== undefined) fields.active = input.active;
    if (input.cdc_id !== undefined) {
      const cdc = input.cdc_id?.toLowerCase() ?? null;
      if (cdc !== null && !chart.ChartDatasetConfigs.some((c) => c.id === cdc)) throw ValidationError.field('body.cdc_id', 'is not a dataset config of this chart');
      fields.cdc_id = cdc;
    }

    const recipients = input.recipients ?? current?.recipients ?? [];
    if (input.recipients !== undefined) {
      const members = await this.deps.access.memberEmails(teamId);
      const normalised = [...new Set(input.recipients.map((r) => r.trim().toLowerCase()))];
      normalised.forEach((email, i) => {
        if (!members.has(email)) throw ValidationError.field(`body.recipients.${i}`, 'is not the email of a member of this team');
      });
      fields.recipients = normalised;
    }

    const mediums: AlertMediums = { ...(current?.mediums ?? {}) };
    if (input.mediums?.email !== undefined) mediums.email = { enabled: input.mediums.email.enabled };
    if (input.mediums?.webhook !== undefined) {
      const url = input.mediums.webhook.url ?? current?.mediums.webhook?.url ?? '';
      if (input.mediums.webhook.enabled && !isHttpUrl(url)) throw ValidationError.field('body.mediums.webhook.url', 'must be an absolute http(s) URL');
      mediums.webhook = { enabled: input.mediums.webhook.enabled, url };
    }
    if (input.mediums !== undefined) fields.mediums = mediums;
    // Checked when this write turns email on or changes its recipients: pausing, renaming or
    // re-aiming an alert whose email was set up before does not depend on the SMTP server.
    const emailWritten = input.mediums?.email !== undefined || input.recipients !== undefined;
    if (mediums.email?.enabled && emailWritten) {
      if (!this.deps.notifier.emailConfigured) {
        throw new BadRequestError('The email medium needs an SMTP server: set PLOTLINE_SMTP_URL on the server, or use the webhook medium', 'SMTP_NOT_CONFIGURED');
      }
      if (recipients.length === 0) throw ValidationError.field('body.recipients', 'must name at least one team member when the email medium is on');
    }
    return fields;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
