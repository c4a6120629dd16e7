import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { SecretBox } from '../../crypto/secrets.js';
import { AppError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { MailExtras } from '../../platform/mailer.js';
import type { ChartsService, ProjectsService } from '../dashboards/index.js';
import type { AlertNotifier } from './alerts-notifier.js';
import { publicOutcome, type DeliveriesRepository, type RunProgress, type SubscriptionRecord, type SubscriptionRun, type TargetOutcome } from './deliveries-repository.js';
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
  /**
   * How often a delivery in progress says it is alive besides each send and each scheduler tick
   * (0: only then); well under the lease after which another process takes it over.
   */
  heartbeatMs: number;
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

/** A delivery's run as it begins: written `running`, with the targets an interrupted run had reached. */
export interface BegunRun {
  id: number;
  startedAt: string;
  /** Targets that an interrupted run of the same period reached: kept in this run, not sent again. */
  carried: TargetOutcome[];
  resumedFrom: number | null;
}

export interface DeliveryResult {
  run: SubscriptionRun;
  /** Another process took the run over while this one delivered it (this one stopped sending). */
  lost: boolean;
}

/** Thrown inside a delivery whose run another process took over: it stops sending. */
class RunLost extends Error {
  constructor() {
    super('the run was taken over by another process');
  }
}

/** This process's hold on a run in progress. */
class RunLease {
  lost = false;

  constructor(
    readonly runId: number,
    private readonly deliveries: DeliveriesRepository,
    private readonly clock: () => Date,
  ) {}

  /** Throws once the run is known to be taken over. */
  check(): void {
    if (this.lost) throw new RunLost();
  }

  /** Writes how far the delivery got; throws when the run is no longer this process's. */
  async record(progress: RunProgress): Promise<void> {
    this.check();
    if (!(await this.deliveries.recordProgress(this.runId, progress, this.clock().toISOString()))) this.lose();
  }

  /** Says the delivery is alive; throws when the run is no longer this process's. */
  async keep(): Promise<void> {
    this.check();
    if (!(await this.deliveries.heartbeat([this.runId], this.clock().toISOString())).has(this.runId)) this.lose();
  }

  private lose(): never {
    this.lost = true;
    throw new RunLost();
  }
}

/** What `sendAll` walks with: the outcomes so far, the carried ones, and how to record them. */
interface Walk {
  done: TargetOutcome[];
  carried: TargetOutcome[];
  progress: (deliveries: TargetOutcome[]) => Promise<void>;
  lease: RunLease;
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
 * with backoff and giving up loudly (run marked failed, an error log line, a metric). The run is
 * written `running` as the delivery starts and each target's outcome as soon as it is known, so a
 * process that dies mid-delivery leaves the record of whom it reached: the process that takes the
 * run over (`DeliveryScheduler`) sends only to the others. While it delivers, the process says it
 * is alive (each send, each scheduler tick, a timer); one that finds its run taken over meanwhile
 * (it was silent past the lease) stops sending.
 */
export class DeliveryRunner {
  private readonly leases = new Map<number, RunLease>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: DeliveryRunnerDeps) {}

  /**
   * A scheduled delivery retries each failed send (`attempts`); a manual one ("send now", someone
   * waiting for the answer) tries each target once and says what happened. A scheduled one comes
   * with its run already written (`begun`: at its claim, or when it resumes an interrupted run,
   * with the targets that run had reached, which are not sent again).
   */
  async deliver(sub: SubscriptionRecord, trigger: 'schedule' | 'manual', period: string | null, begun?: BegunRun): Promise<DeliveryResult> {
    const { clock } = this.deps.settings;
    const run = begun ?? (await this.begin(sub, trigger, period));
    const lease = this.hold(run.id);
    const t0 = performance.now();
    const done: TargetOutcome[] = [];
    let dataUpdatedAt: string | null = null;
    try {
      let content: Content | undefined;
      let error: string | null = null;
      try {
        content = await this.draw(sub);
      } catch (err) {
        error = err instanceof AppError ? `${err.code}: ${err.message}` : 'The picture could not be drawn (see the server log)';
        if (!(err instanceof AppError)) this.deps.logger.error({ err, subscriptionId: sub.id }, 'delivery could not draw its picture');
      }
      dataUpdatedAt = content?.dataUpdatedAt ?? null;
      const attempts = trigger === 'manual' ? 1 : this.deps.settings.attempts;
      const progress = (deliveries: TargetOutcome[]) => lease.record({ deliveries, durationMs: performance.now() - t0, dataUpdatedAt });
      // Drawing can take a while: the run must still be this process's before anything is sent.
      await progress([...run.carried]);
      if (content) await this.sendAll(sub, content, attempts, { done, carried: run.carried, progress, lease });
      else done.push(...run.carried);
      const reached = done.some((d) => d.ok);
      const status = !content || done.length === 0 ? (reached ? 'partial' : 'failed') : done.every((d) => d.ok) ? 'sent' : reached ? 'partial' : 'failed';
      if (status === 'failed' && error === null) error = 'No target received the delivery';
      const durationMs = Math.round(performance.now() - t0);
      if (!(await this.deps.deliveries.finishRun(run.id, { status, deliveries: done, durationMs, dataUpdatedAt, error }, clock().toISOString()))) throw new RunLost();
      this.deps.metrics.run(trigger, status);
      const log = {
        subscriptionId: sub.id,
        teamId: sub.team_id,
        runId: run.id,
        status,
        targets: done.map((d) => `${d.medium}:${d.ok}`),
        ...(run.resumedFrom === null ? {} : { resumedFrom: run.resumedFrom, sentBefore: run.carried.length }),
      };
      if (status === 'sent') this.deps.logger.info(log, 'delivery sent');
      else this.deps.logger.error({ ...log, error }, status === 'partial' ? 'delivery partly failed' : 'delivery failed');
      const answer: SubscriptionRun = { id: run.id, subscription_id: sub.id, trigger, period, status, startedAt: run.startedAt, durationMs, dataUpdatedAt, deliveries: done.map(publicOutcome), error, resumed_from: run.resumedFrom };
      return { run: answer, lost: false };
    } catch (err) {
      if (!(err instanceof RunLost)) {
        // The store or a lookup failed under the delivery: the run says so if it still can be written.
        const error = 'The delivery stopped on an unexpected error (see the server log)';
        await this.deps.deliveries.finishRun(run.id, { status: 'failed', deliveries: done, durationMs: performance.now() - t0, dataUpdatedAt, error }, clock().toISOString()).catch(() => undefined);
        throw err;
      }
      this.deps.logger.warn({ subscriptionId: sub.id, teamId: sub.team_id, runId: run.id, period, sent: done.filter((d) => d.ok).length }, 'delivery stopped: another process took it over (this one had not been heard from for longer than the lease)');
      const taken = await this.deps.deliveries.findRun(sub.team_id, run.id);
      return { run: taken ?? { id: run.id, subscription_id: sub.id, trigger, period, status: 'interrupted', startedAt: run.startedAt, durationMs: Math.round(performance.now() - t0), dataUpdatedAt, deliveries: done.map(publicOutcome), error: 'Interrupted', resumed_from: run.resumedFrom }, lost: true };
    } finally {
      this.release(run.id);
    }
  }

  /** The run of a delivery that comes without one (send now), written `running`. */
  private async begin(sub: SubscriptionRecord, trigger: 'schedule' | 'manual', period: string | null): Promise<BegunRun> {
    const startedAt = this.deps.settings.clock().toISOString();
    const id = await this.deps.deliveries.startRun(sub.team_id, { subscription_id: sub.id, trigger, period }, startedAt);
    return { id, startedAt, carried: [], resumedFrom: null };
  }

  /**
   * Says that this process is still at each delivery it has in progress (every scheduler tick, and
   * the timer). A run found taken over meanwhile stops before its next send.
   */
  async heartbeat(): Promise<void> {
    const ids = [...this.leases.keys()];
    if (ids.length === 0) return;
    const held = await this.deps.deliveries.heartbeat(ids, this.deps.settings.clock().toISOString());
    for (const id of ids) {
      const lease = this.leases.get(id);
      if (lease && !held.has(id)) lease.lost = true;
    }
  }

  /** Whether this process is delivering that run now. */
  delivering(runId: number): boolean {
    return this.leases.has(runId);
  }

  private hold(runId: number): RunLease {
    const lease = new RunLease(runId, this.deps.deliveries, this.deps.settings.clock);
    this.leases.set(runId, lease);
    if (!this.timer && this.deps.settings.heartbeatMs > 0) {
      this.timer = setInterval(() => void this.heartbeat().catch((err: unknown) => this.deps.logger.warn({ err }, 'delivery heartbeat failed')), this.deps.settings.heartbeatMs);
      this.timer.unref();
    }
    return lease;
  }

  private release(runId: number): void {
    this.leases.delete(runId);
    if (this.leases.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
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

  /**
   * Sends to every target in order, skipping those an interrupted run of the period had reached
   * (`carried`: their earlier outcome is kept), and records the run after each target.
   */
  private async sendAll(sub: SubscriptionRecord, content: Content, attempts: number, walk: Walk): Promise<void> {
    const { done, lease } = walk;
    const waiting = new Map(walk.carried.filter((d) => d.key !== undefined).map((d) => [d.key!, d]));
    // What is recorded after each target: those done, and the carried ones not walked yet (so a
    // second interruption still knows them).
    const progress = () => walk.progress([...done, ...waiting.values()]);
    const target = async (key: string, outcome: () => Promise<TargetOutcome>) => {
      const earlier = waiting.get(key);
      if (earlier) {
        waiting.delete(key);
        done.push(earlier);
        return;
      }
      lease.check();
      done.push({ ...(await outcome()), key });
      await progress();
    };
    // Someone who has left the team since the subscription was written gets nothing (unless the team takes outside addresses).
    const external = sub.recipients.length > 0 && (await this.deps.access.teamSettings(sub.team_id))?.allowExternalRecipients === true;
    const members = external || sub.recipients.length === 0 ? undefined : await this.deps.access.memberEmails(sub.team_id);
    for (const email of sub.recipients) {
      await target(targetKey('email', email), async () =>
        members && !members.has(email)
          ? { medium: 'email', target: email, ok: false, attempts: 0, detail: 'Not sent: no longer a member of the team' }
          : this.tryHard('email', email, () => this.email(sub, content, email), sub, attempts, lease),
      );
    }
    const slack = sub.slackUrls ? (JSON.parse(this.deps.secrets.decrypt(sub.slackUrls)) as string[]) : [];
    for (const url of slack) {
      await target(targetKey('slack', url), () => this.tryHard('slack', origin(url), () => this.deps.notifier.postJson(url, slackMessage(content)), sub, attempts, lease));
    }
    for (const integration of await this.deps.integrations.targets(sub.team_id, sub.integration_ids)) {
      const body = integration.slackMode ? slackMessage(content) : this.payload(sub, content);
      await target(targetKey('integration', integration.id), () => this.tryHard('integration', integration.name, () => this.deps.notifier.webhook(integration.url, integration.secret, body), sub, attempts, lease));
    }
    if (sub.webhookUrl && sub.webhookSecret) {
      const url = this.deps.secrets.decrypt(sub.webhookUrl);
      const secret = this.deps.secrets.decrypt(sub.webhookSecret);
      await target(targetKey('webhook', url), () => this.tryHard('webhook', origin(url), () => this.deps.notifier.webhook(url, secret, this.payload(sub, content)), sub, attempts, lease));
    }
    // Reached before the interruption and no longer named by the subscription: they did receive this period.
    done.push(...waiting.values());
  }

  /**
   * One target, tried up to `attempts` times with doubling waits; the last failure is logged as an
   * error. Before each further try the run must still be this process's.
   */
  private async tryHard(
    medium: TargetOutcome['medium'],
    target: string,
    send: () => Promise<{ ok: boolean; detail: string }>,
    sub: SubscriptionRecord,
    attempts: number,
    lease: RunLease,
  ): Promise<TargetOutcome> {
    const { backoffMs } = this.deps.settings;
    let last = { ok: false, detail: 'not tried' };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await lease.keep();
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

/**
 * Which target an outcome is, kept with the run (`TargetOutcome.key`) so a resumed delivery knows
 * whom it reached: an e-mail by its address, an integration by its id, a Slack or webhook URL by
 * a digest (its path holds its credential, and several Slack URLs share one origin).
 */
export function targetKey(medium: 'email', address: string): string;
export function targetKey(medium: 'integration', id: number): string;
export function targetKey(medium: 'slack' | 'webhook', url: string): string;
export function targetKey(medium: TargetOutcome['medium'], ref: string | number): string {
  if (medium === 'email' || medium === 'integration') return `${medium}:${ref}`;
  return `${medium}:${createHash('sha256').update(String(ref)).digest('hex').slice(0, 16)}`;
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
