import type { Logger } from 'pino';
import type { SecretBox } from '../../crypto/secrets.js';
import { AppError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { MailExtras } from '../../platform/mailer.js';
import type { ChartsService, ProjectsService } from '../dashboards/index.js';
import type { AlertNotifier } from './alerts-notifier.js';
import type { DeliveriesRepository, SubscriptionRecord, SubscriptionRun, TargetOutcome } from './deliveries-repository.js';
import type { DeliveryLinks } from './deliveries-links.js';
import type { DeliveryMetrics } from './deliveries-metrics.js';
import type { DeliveryPictures } from './deliveries-pictures.js';
import { chartTables, singleTable } from './exports-tables.js';
import { tableStream } from './exports-writers.js';
import type { IntegrationsService } from './integrations-service.js';
import type { RefreshService } from './refreshes-service.js';

export interface DeliverySettings {
  /** Tries of one send before it gives up. */
  attempts: number;
  /** Wait before the second try; doubled before each further one. */
  backoffMs: number;
  clock: () => Date;
}

export interface DeliveryRunnerDeps {
  deliveries: DeliveriesRepository;
  projects: ProjectsService;
  charts: ChartsService;
  refreshes: RefreshService;
  pictures: DeliveryPictures;
  notifier: AlertNotifier;
  integrations: IntegrationsService;
  access: AccessService;
  secrets: SecretBox;
  links: DeliveryLinks;
  metrics: DeliveryMetrics;
  settings: DeliverySettings;
  logger: Logger;
}

/** A signed image link lives a week: long enough for a message read late. */
const IMAGE_LINK_SECONDS = 7 * 86_400;

/** What one delivery sends, drawn once for every target. */
interface Content {
  title: string;
  /** E-mail attachments (an inline PNG named `picture`, a PDF, a CSV). */
  attachments: NonNullable<MailExtras['attachments']>;
  /** The signed, expiring picture link for Slack and webhooks. */
  imageUrl: string;
  dataUpdatedAt: string | null;
  /** Said on every message: how old the data is and, when the refresh failed, that too. */
  freshness: string;
}

/**
 * One delivery of a subscription: refresh the data it shows, draw it, send it to every target
 * (each e-mail recipient on their own, with their own unsubscribe link), retrying a failed send
 * with backoff and giving up loudly (run marked failed, an error log line, a metric), and record
 * the run with the outcome of every target.
 */
export class DeliveryRunner {
  constructor(private readonly deps: DeliveryRunnerDeps) {}

  /**
   * A scheduled delivery retries each failed send (`attempts`); a manual one ("send now", someone
   * waiting for the answer) tries each target once and says what happened.
   */
  async deliver(sub: SubscriptionRecord, trigger: 'schedule' | 'manual', period: string | null): Promise<SubscriptionRun> {
    const startedAt = this.deps.settings.clock();
    const t0 = performance.now();
    let content: Content | undefined;
    let error: string | null = null;
    try {
      content = await this.draw(sub);
    } catch (err) {
      error = err instanceof AppError ? `${err.code}: ${err.message}` : 'The picture could not be drawn (see the server log)';
      if (!(err instanceof AppError)) this.deps.logger.error({ err, subscriptionId: sub.id }, 'delivery could not draw its picture');
    }
    const attempts = trigger === 'manual' ? 1 : this.deps.settings.attempts;
    const deliveries = content ? await this.sendAll(sub, content, attempts) : [];
    const status = !content || deliveries.length === 0 ? 'failed' : deliveries.every((d) => d.ok) ? 'sent' : deliveries.some((d) => d.ok) ? 'partial' : 'failed';
    if (status === 'failed' && error === null) error = 'No target received the delivery';
    const run = await this.deps.deliveries.insertRun(sub.team_id, {
      subscription_id: sub.id,
      trigger,
      period,
      status,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - t0),
      dataUpdatedAt: content?.dataUpdatedAt ?? null,
      deliveries,
      error,
    });
    this.deps.metrics.run(trigger, status);
    const log = { subscriptionId: sub.id, teamId: sub.team_id, runId: run.id, status, targets: deliveries.map((d) => `${d.medium}:${d.ok}`) };
    if (status === 'sent') this.deps.logger.info(log, 'delivery sent');
    else this.deps.logger.error({ ...log, error }, status === 'partial' ? 'delivery partly failed' : 'delivery failed');
    return run;
  }

  /** Refreshes the data (a failure is said on the message; the last saved data is sent), then draws. */
  private async draw(sub: SubscriptionRecord): Promise<Content> {
    const scope = { teamId: sub.team_id, projectId: sub.project_id };
    const dashboard = await this.deps.projects.loadDashboard(sub.team_id, sub.project_id);
    if (!dashboard) throw new AppError(404, 'NOT_FOUND', 'The dashboard no longer exists');
    let refreshFailed = false;
    try {
      const run = sub.chart_id === null ? await this.deps.refreshes.refreshDashboard(sub.team_id, sub.project_id, 'schedule') : await this.deps.refreshes.refreshChart(sub.team_id, sub.chart_id, 'schedule');
      refreshFailed = run?.status === 'failure';
    } catch (err) {
      refreshFailed = true;
      this.deps.logger.warn({ err, subscriptionId: sub.id }, 'delivery refresh failed; sending the last saved data');
    }
    const attachments: Content['attachments'] = [];
    let dataUpdatedAt: string | null;
    let title = dashboard.name;
    if (sub.chart_id !== null) {
      const loaded = await this.deps.charts.loadForRun(sub.team_id, sub.chart_id);
      if (!loaded) throw new AppError(404, 'NOT_FOUND', 'The chart no longer exists');
      title = `${loaded.chart.name ?? `Chart ${loaded.chart.id}`} (${dashboard.name})`;
      if (sub.format === 'csv') {
        const tables = chartTables(loaded.chart.type ?? null, loaded.chart.chartData);
        const csv = await collect(tableStream('csv', tables, singleTable(tables)));
        attachments.push({ filename: `${slug(loaded.chart.name ?? 'chart')}.csv`, content: csv, contentType: 'text/csv' });
        dataUpdatedAt = loaded.chart.chartDataUpdated ?? null;
      } else {
        const picture = await this.deps.pictures.chartPicture({ ...scope, chartId: sub.chart_id }, { format: 'png', theme: sub.theme });
        attachments.push({ filename: `${slug(loaded.chart.name ?? 'chart')}.png`, content: picture.body, contentType: picture.contentType, cid: 'picture' });
        dataUpdatedAt = picture.dataUpdatedAt;
      }
    } else {
      const filters = sub.filters ?? undefined;
      const picture = await this.deps.pictures.dashboardPicture(scope, { format: sub.format === 'pdf' ? 'pdf' : 'png', theme: sub.theme, pages: sub.format === 'pdf' ? 'screens' : 'single', ...(filters ? { filters } : {}) });
      attachments.push({
        filename: `${slug(dashboard.name)}.${sub.format === 'pdf' ? 'pdf' : 'png'}`,
        content: picture.body,
        contentType: picture.contentType,
        ...(sub.format === 'pdf' ? {} : { cid: 'picture' }),
      });
      dataUpdatedAt = picture.dataUpdatedAt;
    }
    const imageUrl = this.deps.pictures.signImageLink({ ...scope, ...(sub.chart_id !== null ? { chartId: sub.chart_id } : {}) }, { format: 'png', theme: sub.theme, expiresInSeconds: IMAGE_LINK_SECONDS });
    const freshness = `Data as of ${dataUpdatedAt ?? 'an unknown time'}${refreshFailed ? ' (the refresh before this delivery failed: this is the last saved data)' : ''}`;
    return { title, attachments, imageUrl, dataUpdatedAt, freshness };
  }

  private async sendAll(sub: SubscriptionRecord, content: Content, attempts: number): Promise<TargetOutcome[]> {
    const outcomes: TargetOutcome[] = [];
    // Someone who has left the team since the subscription was written gets nothing (unless the team takes outside addresses).
    const external = sub.recipients.length > 0 && (await this.deps.access.teamSettings(sub.team_id))?.allowExternalRecipients === true;
    const members = external || sub.recipients.length === 0 ? undefined : await this.deps.access.memberEmails(sub.team_id);
    for (const email of sub.recipients) {
      if (members && !members.has(email)) {
        outcomes.push({ medium: 'email', target: email, ok: false, attempts: 0, detail: 'Not sent: no longer a member of the team' });
        continue;
      }
      outcomes.push(await this.tryHard('email', email, () => this.email(sub, content, email), sub, attempts));
    }
    const slack = sub.slackUrls ? (JSON.parse(this.deps.secrets.decrypt(sub.slackUrls)) as string[]) : [];
    for (const url of slack) {
      outcomes.push(await this.tryHard('slack', origin(url), () => this.deps.notifier.postJson(url, slackMessage(content)), sub, attempts));
    }
    for (const integration of await this.deps.integrations.targets(sub.team_id, sub.integration_ids)) {
      const body = integration.slackMode ? slackMessage(content) : this.payload(sub, content);
      outcomes.push(await this.tryHard('integration', integration.name, () => this.deps.notifier.webhook(integration.url, integration.secret, body), sub, attempts));
    }
    if (sub.webhookUrl && sub.webhookSecret) {
      const url = this.deps.secrets.decrypt(sub.webhookUrl);
      const secret = this.deps.secrets.decrypt(sub.webhookSecret);
      outcomes.push(await this.tryHard('webhook', origin(url), () => this.deps.notifier.webhook(url, secret, this.payload(sub, content)), sub, attempts));
    }
    return outcomes;
  }

  /** One target, tried up to `attempts` times with doubling waits; the last failure is logged as an error. */
  private async tryHard(medium: TargetOutcome['medium'], target: string, send: () => Promise<{ ok: boolean; detail: string }>, sub: SubscriptionRecord, attempts: number): Promise<TargetOutcome> {
    const { backoffMs } = this.deps.settings;
    let last = { ok: false, detail: 'not tried' };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      last = await send();
      if (last.ok) {
        this.deps.metrics.send(medium, 'sent');
        return { medium, target, ok: true, attempts: attempt, detail: last.detail };
      }
      if (attempt < attempts) {
        this.deps.metrics.send(medium, 'retried');
        await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
      }
    }
    this.deps.metrics.send(medium, 'failed');
    this.deps.logger.error({ subscriptionId: sub.id, teamId: sub.team_id, medium, target, attempts, detail: last.detail }, 'delivery gave up on a target');
    return { medium, target, ok: false, attempts, detail: last.detail };
  }

  private async email(sub: SubscriptionRecord, content: Content, email: string): Promise<{ ok: boolean; detail: string }> {
    const unsubscribe = this.deps.links.unsubscribeUrl(sub.id, email);
    const inline = content.attachments.some((a) => a.cid === 'picture');
    const text = `${content.title}\n${content.freshness}\n\n${inline ? '' : 'Attached: ' + content.attachments.map((a) => a.filename).join(', ') + '\n\n'}Stop receiving this delivery: ${unsubscribe}\n`;
    const html =
      `<p><strong>${escapeHtml(content.title)}</strong><br>${escapeHtml(content.freshness)}</p>` +
      (inline ? '<p><img src="cid:picture" alt="' + escapeHtml(content.title) + '" style="max-width:100%"></p>' : `<p>Attached: ${content.attachments.map((a) => escapeHtml(a.filename)).join(', ')}</p>`) +
      `<p style="font-size:12px;color:#666"><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a> from this delivery.</p>`;
    return this.deps.notifier.mailer.send([email], `[Plotline] ${content.title}`, text, {
      html,
      attachments: content.attachments,
      // RFC 8058: mail clients offer a one-click unsubscribe that POSTs to this URL.
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
  }

  /** What a webhook receives, signed (`x-plotline-signature`, as alerts sign). */
  private payload(sub: SubscriptionRecord, content: Content) {
    return {
      event: 'subscription.delivered',
      subscription: { id: sub.id, name: sub.name },
      project_id: sub.project_id,
      chart_id: sub.chart_id,
      title: content.title,
      format: sub.format,
      imageUrl: content.imageUrl,
      dataUpdatedAt: content.dataUpdatedAt,
      sentAt: this.deps.settings.clock().toISOString(),
    };
  }
}

/** Slack's Block Kit: the title, how fresh the data is, and the picture by its signed link. */
export function slackMessage(content: { title: string; freshness: string; imageUrl: string }) {
  return {
    text: `${content.title}: ${content.freshness}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${content.title}*\n${content.freshness}` } },
      { type: 'image', image_url: content.imageUrl, alt_text: content.title },
    ],
  };
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}

function slug(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'picture';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
