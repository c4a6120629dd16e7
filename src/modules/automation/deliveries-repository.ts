import type { Selectable } from 'kysely';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { SubscriptionRunsTable, SubscriptionsTable } from '../../store/types.js';
import type { DeliverySchedule } from './deliveries-schedule.js';

export const DELIVERY_FORMATS = ['png', 'pdf', 'csv'] as const;
export type DeliveryFormat = (typeof DELIVERY_FORMATS)[number];

/** A subscription as stored: its Slack URLs, webhook URL and key are encrypted envelopes. */
export interface SubscriptionRecord {
  id: number;
  team_id: number;
  project_id: number;
  chart_id: number | null;
  name: string | null;
  schedule: DeliverySchedule;
  format: DeliveryFormat;
  theme: 'light' | 'dark';
  filters: { filters: unknown; variables: unknown } | null;
  recipients: string[];
  integration_ids: number[];
  slackUrls: string | null;
  webhookUrl: string | null;
  webhookSecret: string | null;
  origin: string;
  active: boolean;
  lastSentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type SubscriptionFields = Partial<
  Pick<SubscriptionRecord, 'name' | 'schedule' | 'format' | 'theme' | 'filters' | 'recipients' | 'integration_ids' | 'slackUrls' | 'webhookUrl' | 'webhookSecret' | 'active'>
>;

/** What became of one target of a delivery. */
export interface TargetOutcome {
  medium: 'email' | 'slack' | 'webhook' | 'integration';
  /** The email address, or the URL's origin (never the URL itself: it holds its credential). */
  target: string;
  ok: boolean;
  attempts: number;
  detail: string;
  /** Set when an earlier, interrupted run of the same period sent it: that run's id (it was not sent again). */
  sentInRun?: number;
  /** Which target this is (the runner's `targetKey`), for a resumed delivery to know whom it reached. Stored with the run, never answered. */
  key?: string;
}

/** `running` while its delivery goes on; `interrupted` when its process stopped before the end. */
export const RUN_STATUSES = ['running', 'sent', 'partial', 'failed', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface SubscriptionRun {
  id: number;
  subscription_id: number;
  trigger: 'schedule' | 'manual';
  period: string | null;
  status: RunStatus;
  startedAt: string;
  durationMs: number;
  dataUpdatedAt: string | null;
  deliveries: TargetOutcome[];
  error: string | null;
  /** The interrupted run of the same period this one took over. */
  resumed_from: number | null;
}

/** What a delivery in progress writes as it goes (each target as soon as its outcome is known). */
export interface RunProgress {
  deliveries: TargetOutcome[];
  durationMs: number;
  dataUpdatedAt: string | null;
}

/** A `running` run whose process has not been heard from since `heartbeatAt` (see `silentRuns`). */
export interface SilentRun {
  id: number;
  subscription_id: number;
  team_id: number;
  trigger: 'schedule' | 'manual';
  period: string | null;
  heartbeatAt: string;
  deliveries: TargetOutcome[];
  /** How many deliveries of the period have started (its claim's `attempts`); null for a send now. */
  starts: number | null;
  /** When the period was claimed (the subscription's `lastSentAt` then); null for a send now. */
  claimedAt: string | null;
}

/** What the process that takes an interrupted run over does with it. */
export type Takeover = { resume: true } | { resume: false; reason: string };

/** The answered shape of an outcome: its internal key left out. */
export function publicOutcome({ key: _key, ...outcome }: TargetOutcome): TargetOutcome {
  return outcome;
}

function runStatus(value: string): RunStatus {
  return (RUN_STATUSES as readonly string[]).includes(value) ? (value as RunStatus) : 'failed';
}

function toRecord(row: Selectable<SubscriptionsTable>): SubscriptionRecord {
  return {
    id: row.id,
    team_id: row.team_id,
    project_id: row.project_id,
    chart_id: row.chart_id,
    name: row.name,
    schedule: fromJson<DeliverySchedule>(row.schedule, { frequency: 'daily', time: { hour: 9, minute: 0 }, timezone: 'UTC' }),
    format: row.format as DeliveryFormat,
    theme: row.theme === 'dark' ? 'dark' : 'light',
    filters: fromJson<SubscriptionRecord['filters']>(row.filters, null),
    recipients: fromJson<string[]>(row.recipients, []),
    integration_ids: fromJson<number[]>(row.integration_ids, []),
    slackUrls: row.slack_urls,
    webhookUrl: row.webhook_url,
    webhookSecret: row.webhook_secret,
    origin: row.origin,
    active: toBool(row.active),
    lastSentAt: toIso(row.lastSentAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function columns(fields: SubscriptionFields) {
  const { schedule, filters, recipients, integration_ids, slackUrls, webhookUrl, webhookSecret, ...plain } = fields;
  return {
    ...plain,
    ...(schedule !== undefined ? { schedule: toJson(schedule) } : {}),
    ...(filters !== undefined ? { filters: filters === null ? null : toJson(filters) } : {}),
    ...(recipients !== undefined ? { recipients: toJson(recipients) } : {}),
    ...(integration_ids !== undefined ? { integration_ids: toJson(integration_ids) } : {}),
    ...(slackUrls !== undefined ? { slack_urls: slackUrls } : {}),
    ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}),
    ...(webhookSecret !== undefined ? { webhook_secret: webhookSecret } : {}),
  };
}

const CLAIM_KIND = 'subscription';

/** A run as answered: outcomes without their internal key. */
function toRun(row: Selectable<SubscriptionRunsTable>): SubscriptionRun {
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    trigger: row.trigger === 'manual' ? 'manual' : 'schedule',
    period: row.period,
    status: runStatus(row.status),
    startedAt: toIso(row.startedAt),
    durationMs: row.durationMs,
    dataUpdatedAt: toIso(row.dataUpdatedAt),
    deliveries: fromJson<TargetOutcome[]>(row.deliveries, []).map(publicOutcome),
    error: row.errorMessage,
    resumed_from: row.resumed_from,
  };
}

/** Writes a run as its delivery starts: `running`, heard from now. */
async function insertRunning(
  db: Db,
  teamId: number,
  run: { subscription_id: number; trigger: 'schedule' | 'manual'; period: string | null; deliveries: TargetOutcome[]; resumed_from: number | null },
  at: string,
): Promise<number> {
  const row = await db
    .insertInto('subscription_runs')
    .values({
      subscription_id: run.subscription_id,
      team_id: teamId,
      trigger: run.trigger,
      period: run.period,
      status: 'running',
      startedAt: at,
      durationMs: 0,
      dataUpdatedAt: null,
      deliveries: toJson(run.deliveries),
      errorMessage: null,
      heartbeatAt: at,
      resumed_from: run.resumed_from,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * SQL of subscriptions, their runs, and their claims (rows of the refresh scheduler's
 * `refresh_claims`, kind `subscription`). Every read from a request takes the team and dashboard.
 */
export class DeliveriesRepository {
  constructor(private readonly db: Db) {}

  async list(teamId: number, projectId: number, chartId?: number): Promise<SubscriptionRecord[]> {
    let query = this.db.selectFrom('subscriptions').selectAll().where('team_id', '=', teamId).where('project_id', '=', projectId);
    if (chartId !== undefined) query = query.where('chart_id', '=', chartId);
    return (await query.orderBy('id').execute()).map(toRecord);
  }

  async find(teamId: number, projectId: number, id: number): Promise<SubscriptionRecord | undefined> {
    const row = await this.db.selectFrom('subscriptions').selectAll().where('team_id', '=', teamId).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** For the scheduler and the unsubscribe link, which have decided access themselves. */
  async findAnyTeam(id: number): Promise<SubscriptionRecord | undefined> {
    const row = await this.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async findByOrigin(teamId: number, projectId: number, origin: string): Promise<SubscriptionRecord | undefined> {
    const row = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('project_id', '=', projectId)
      .where('origin', '=', origin)
      .orderBy('id')
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async countByTeam(teamId: number): Promise<number> {
    const row = await this.db.selectFrom('subscriptions').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', teamId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async active(): Promise<SubscriptionRecord[]> {
    return (await this.db.selectFrom('subscriptions').selectAll().where('active', '=', true).orderBy('id').execute()).map(toRecord);
  }

  async create(
    scope: { teamId: number; projectId: number; chartId: number | null; createdBy: number | null; origin?: string },
    fields: SubscriptionFields & Pick<SubscriptionRecord, 'schedule' | 'format'>,
    at: string,
  ): Promise<SubscriptionRecord> {
    const row = await this.db
      .insertInto('subscriptions')
      .values({
        recipients: toJson([]),
        integration_ids: toJson([]),
        active: true,
        ...columns(fields),
        schedule: toJson(fields.schedule),
        format: fields.format,
        team_id: scope.teamId,
        project_id: scope.projectId,
        chart_id: scope.chartId,
        created_by: scope.createdBy,
        ...(scope.origin ? { origin: scope.origin } : {}),
        createdAt: at,
        updatedAt: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async update(teamId: number, id: number, fields: SubscriptionFields): Promise<SubscriptionRecord | undefined> {
    const row = await this.db.updateTable('subscriptions').set({ ...columns(fields), updatedAt: now() }).where('team_id', '=', teamId).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toRecord(row);
  }

  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('subscriptions').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Takes one address off a subscription's recipients (the unsubscribe link); true when it was there. */
  async removeRecipient(id: number, email: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('subscriptions').select(['recipients']).where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      const recipients = fromJson<string[]>(row.recipients, []);
      const kept = recipients.filter((r) => r !== email);
      if (kept.length === recipients.length) return false;
      await trx.updateTable('subscriptions').set({ recipients: toJson(kept), updatedAt: now() }).where('id', '=', id).execute();
      return true;
    });
  }

  /**
   * Claims a period of a subscription for this process (a `refresh_claims` row of kind
   * `subscription`, taken `running` at once: the process that wins it delivers it), moves
   * `lastSentAt` and writes the period's run, `running`, in the same transaction: a claim taken is
   * never without the run that records how far its delivery got. Answers the run's id, or
   * undefined when another process holds the period.
   */
  async claim(sub: { id: number; teamId: number }, period: string, at: string): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .insertInto('refresh_claims')
        .values({ entity_type: CLAIM_KIND, entity_id: sub.id, period, claimedAt: at, state: 'running', team_id: sub.teamId, enqueuedAt: at, startedAt: at })
        .onConflict((oc) => oc.columns(['entity_type', 'entity_id', 'period']).doNothing())
        .returning(['entity_id'])
        .execute();
      if (rows.length === 0) return undefined;
      await trx.updateTable('subscriptions').set({ lastSentAt: at }).where('id', '=', sub.id).execute();
      return insertRunning(trx, sub.teamId, { subscription_id: sub.id, trigger: 'schedule', period, deliveries: [], resumed_from: null }, at);
    });
  }

  async finishClaim(id: number, period: string, state: 'done' | 'failed'): Promise<void> {
    await this.db.updateTable('refresh_claims').set({ state }).where('entity_type', '=', CLAIM_KIND).where('entity_id', '=', id).where('period', '=', period).execute();
  }

  /** The run of a send now, `running` from its start. */
  async startRun(teamId: number, run: { subscription_id: number; trigger: 'schedule' | 'manual'; period: string | null }, at: string): Promise<number> {
    return insertRunning(this.db, teamId, { ...run, deliveries: [], resumed_from: null }, at);
  }

  /**
   * Writes how far a delivery got (and that its process is alive). False when the run is no
   * longer `running`: another process took it over, and this one must stop sending.
   */
  async recordProgress(runId: number, progress: RunProgress, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('subscription_runs')
      .set({ deliveries: toJson(progress.deliveries), durationMs: Math.round(progress.durationMs), dataUpdatedAt: progress.dataUpdatedAt, heartbeatAt: at })
      .where('id', '=', runId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The end of a delivery; false, as `recordProgress`, when the run was taken over meanwhile. */
  async finishRun(runId: number, outcome: RunProgress & { status: Exclude<RunStatus, 'running' | 'interrupted'>; error: string | null }, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('subscription_runs')
      .set({
        status: outcome.status,
        deliveries: toJson(outcome.deliveries),
        durationMs: Math.round(outcome.durationMs),
        dataUpdatedAt: outcome.dataUpdatedAt,
        errorMessage: outcome.error,
        heartbeatAt: at,
      })
      .where('id', '=', runId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Says that this process still delivers these runs; answers those still `running` (the others were taken over). */
  async heartbeat(runIds: readonly number[], at: string): Promise<Set<number>> {
    if (runIds.length === 0) return new Set();
    const rows = await this.db.updateTable('subscription_runs').set({ heartbeatAt: at }).where('id', 'in', [...runIds]).where('status', '=', 'running').returning('id').execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Runs still `running` whose process has not been heard from since before `before`, oldest first. */
  async silentRuns(before: string): Promise<SilentRun[]> {
    const rows = await this.db
      .selectFrom('subscription_runs as r')
      .leftJoin('refresh_claims as c', (join) => join.on('c.entity_type', '=', CLAIM_KIND).onRef('c.entity_id', '=', 'r.subscription_id').onRef('c.period', '=', 'r.period'))
      .select(['r.id', 'r.subscription_id', 'r.team_id', 'r.trigger', 'r.period', 'r.heartbeatAt', 'r.deliveries', 'c.attempts', 'c.claimedAt'])
      .where('r.status', '=', 'running')
      .where('r.heartbeatAt', '<', before)
      .orderBy('r.heartbeatAt')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      subscription_id: row.subscription_id,
      team_id: row.team_id,
      trigger: row.trigger === 'manual' ? 'manual' : 'schedule',
      period: row.period,
      heartbeatAt: toIso(row.heartbeatAt)!,
      deliveries: fromJson<TargetOutcome[]>(row.deliveries, []),
      starts: row.attempts ?? null,
      claimedAt: toIso(row.claimedAt),
    }));
  }

  /**
   * Takes a silent run over, if it is still silent: of several processes that try at once,
   * exactly one moves it from `running` to `interrupted` (a conditional update whose row count
   * decides; a heartbeat that came meanwhile makes it miss). That one, in the same transaction,
   * either writes the period's next run, `running`, carrying the targets already sent (and counts
   * one more start on the claim), or ends the claim `failed`. Answers the new run (null when not
   * resumed), or undefined when the run was not taken here.
   */
  async takeOver(run: SilentRun, takeover: Takeover, before: string, at: string): Promise<{ runId: number | null; carried: TargetOutcome[] } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const silence = `Interrupted: the process delivering it stopped (nothing heard from it since ${run.heartbeatAt})`;
      const taken = await trx
        .updateTable('subscription_runs')
        .set({ status: 'interrupted', errorMessage: takeover.resume ? `${silence}; the next run resumed it for the targets it had not reached` : `${silence}; not resumed: ${takeover.reason}` })
        .where('id', '=', run.id)
        .where('status', '=', 'running')
        .where('heartbeatAt', '<', before)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return undefined;
      const claim = () => trx.updateTable('refresh_claims').where('entity_type', '=', CLAIM_KIND).where('entity_id', '=', run.subscription_id).where('period', '=', run.period ?? '');
      if (!takeover.resume) {
        if (run.period !== null) await claim().set({ state: 'failed' }).execute();
        return { runId: null, carried: [] };
      }
      const carried = run.deliveries.filter((d) => d.ok).map((d) => ({ ...d, sentInRun: d.sentInRun ?? run.id }));
      const runId = await insertRunning(trx, run.team_id, { subscription_id: run.subscription_id, trigger: run.trigger, period: run.period, deliveries: carried, resumed_from: run.id }, at);
      if (run.period !== null) await claim().set((eb) => ({ state: 'running', startedAt: at, attempts: eb('attempts', '+', 1) })).execute();
      return { runId, carried };
    });
  }

  /** Deletes runs started before `before` (the history is kept PLOTLINE_RUN_HISTORY_DAYS). */
  async pruneRuns(before: string): Promise<number> {
    const result = await this.db.deleteFrom('subscription_runs').where('startedAt', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async runs(teamId: number, subscriptionId: number, page: { limit: number; offset: number }): Promise<{ runs: SubscriptionRun[]; total: number }> {
    const base = this.db.selectFrom('subscription_runs').where('team_id', '=', teamId).where('subscription_id', '=', subscriptionId);
    const rows = await base.selectAll().orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { total: Number(total.n), runs: rows.map(toRun) };
  }

  async findRun(teamId: number, id: number): Promise<SubscriptionRun | undefined> {
    const row = await this.db.selectFrom('subscription_runs').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row && toRun(row);
  }

  /**
   * Rewrites each envelope (Slack URLs, webhook URL, signing key) through `reencrypt`, in one
   * transaction (`plotline rotate-key`); returns how many changed.
   */
  async reencryptAll(reencrypt: (envelope: string) => string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let changed = 0;
      for (const row of await trx.selectFrom('subscriptions').select(['id', 'slack_urls', 'webhook_url', 'webhook_secret']).execute()) {
        const next = {
          slack_urls: row.slack_urls === null ? null : reencrypt(row.slack_urls),
          webhook_url: row.webhook_url === null ? null : reencrypt(row.webhook_url),
          webhook_secret: row.webhook_secret === null ? null : reencrypt(row.webhook_secret),
        };
        const count = Number(next.slack_urls !== row.slack_urls) + Number(next.webhook_url !== row.webhook_url) + Number(next.webhook_secret !== row.webhook_secret);
        if (count === 0) continue;
        await trx.updateTable('subscriptions').set(next).where('id', '=', row.id).execute();
        changed += count;
      }
      return changed;
    });
  }
}
