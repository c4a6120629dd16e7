import type { Static } from 'typebox';
import type { Db } from '../../store/index.js';
import { fromJson, toBool, toIso, toJson } from '../../store/columns.js';
import type { ChartRunEntry as ChartRunEntrySchema, RefreshRun as RefreshRunSchema } from './refreshes-schemas.js';

export type RefreshRun = Static<typeof RefreshRunSchema>;
export type ChartRunEntry = Static<typeof ChartRunEntrySchema>;
export type RefreshTrigger = RefreshRun['trigger'];
export type RefreshStatus = RefreshRun['status'];
export type ClaimKind = 'dashboard' | 'chart';

/** A claimed period: which dashboard or chart, which period, whose team. */
export interface ClaimKey {
  kind: ClaimKind;
  id: number;
  period: string;
}

/** A claim still waiting for a worker. */
export interface EnqueuedClaim extends ClaimKey {
  teamId: number;
  enqueuedAt: string;
  attempts: number;
}

/** Claims per statement (SQLite allows 32,766 bound values; seven per row). */
const CLAIM_CHUNK = 500;

export type NewRefreshRun = Omit<RefreshRun, 'id'> & { team_id: number };

/** A dashboard with a schedule, as the scheduler needs it. */
export interface ScheduledDashboard {
  id: number;
  team_id: number;
  timezone: string | null;
  updateSchedule: unknown;
  lastUpdatedAt: string | null;
}

/** A chart with auto-update on, as the scheduler needs it. */
export interface AutoUpdateChart {
  id: number;
  project_id: number;
  team_id: number;
  type: string | null;
  autoUpdate: number | null;
  lastAutoUpdate: string | null;
}

/**
 * SQL of the refresh machinery: claims, run history and the scheduler's candidate lists. The
 * scheduler reads every team's rows; nothing here is reachable from a request without a team id.
 */
export class RefreshRepository {
  constructor(private readonly db: Db) {}

  async scheduledDashboards(): Promise<ScheduledDashboard[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select(['id', 'team_id', 'timezone', 'updateSchedule', 'lastUpdatedAt'])
      .where('updateSchedule', 'is not', null)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      team_id: row.team_id,
      timezone: row.timezone,
      updateSchedule: fromJson<unknown>(row.updateSchedule, null),
      lastUpdatedAt: toIso(row.lastUpdatedAt),
    }));
  }

  async autoUpdateCharts(): Promise<AutoUpdateChart[]> {
    const rows = await this.db
      .selectFrom('charts')
      .innerJoin('projects', 'projects.id', 'charts.project_id')
      .select(['charts.id', 'charts.project_id', 'projects.team_id', 'charts.type', 'charts.autoUpdate', 'charts.lastAutoUpdate'])
      .where('charts.autoUpdate', '>', 0)
      .orderBy('charts.id')
      .execute();
    return rows
      .filter((row) => row.type !== 'markdown')
      .map((row) => ({ ...row, lastAutoUpdate: toIso(row.lastAutoUpdate) }));
  }

  /**
   * Claims (entity, period) pairs for this process: the insert does nothing for a pair another
   * process holds. A won claim starts `enqueued`; the dashboard's `lastUpdatedAt` (a chart's
   * `lastAutoUpdate`) moves only when a worker starts it (`start`), so a claim lost from the queue
   * never passes for a refresh. Pairs are inserted in (kind, id) order, so two processes claiming
   * overlapping sets take row locks in the same order. Answers the won pairs as `kind_id`.
   */
  async claim(items: { kind: ClaimKind; id: number; period: string; teamId: number }[], at: string): Promise<Set<string>> {
    const won = new Set<string>();
    if (items.length === 0) return won;
    const sorted = [...items].sort((a, b) => (a.kind === b.kind ? a.id - b.id : a.kind < b.kind ? -1 : 1));
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < sorted.length; i += CLAIM_CHUNK) {
        const chunk = sorted.slice(i, i + CLAIM_CHUNK);
        const rows = await trx
          .insertInto('refresh_claims')
          .values(
            chunk.map((item) => ({
              entity_type: item.kind,
              entity_id: item.id,
              period: item.period,
              claimedAt: at,
              state: 'enqueued',
              team_id: item.teamId,
              enqueuedAt: at,
            })),
          )
          .onConflict((oc) => oc.columns(['entity_type', 'entity_id', 'period']).doNothing())
          .returning(['entity_type', 'entity_id'])
          .execute();
        for (const row of rows) won.add(`${row.entity_type}_${row.entity_id}`);
      }
    });
    return won;
  }

  /** Claims handed to the queue at or before `before` that no worker has started, oldest first. */
  async enqueuedBefore(before: string): Promise<EnqueuedClaim[]> {
    const rows = await this.db
      .selectFrom('refresh_claims')
      .select(['entity_type', 'entity_id', 'period', 'team_id', 'enqueuedAt', 'attempts'])
      .where('state', '=', 'enqueued')
      .where('enqueuedAt', '<=', before)
      .where('team_id', 'is not', null)
      .orderBy('enqueuedAt')
      .execute();
    return rows.map((row) => ({
      kind: row.entity_type as ClaimKind,
      id: row.entity_id,
      period: row.period,
      teamId: row.team_id!,
      enqueuedAt: toIso(row.enqueuedAt)!,
      attempts: row.attempts,
    }));
  }

  /**
   * Marks a claim handed to the queue again, if it is still the one read (`attempts` unchanged):
   * of several processes that find the same lost claim, exactly one gets true and enqueues it.
   */
  async requeue(claim: EnqueuedClaim, at: string): Promise<boolean> {
    const result = await this.updateClaim(this.db, claim)
      .set({ enqueuedAt: at, attempts: claim.attempts + 1 })
      .where('state', '=', 'enqueued')
      .where('attempts', '=', claim.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * A worker takes a claim: `enqueued` -> `running` (or, for a job the queue handed over again
   * after its worker stopped, `running` -> `running`), and `started` runs in the same transaction
   * (it moves the dashboard's `lastUpdatedAt` or the chart's `lastAutoUpdate`). Other claims of the same
   * dashboard or chart still waiting are covered by this refresh and marked done. False when the
   * claim is not there to take (another copy of the job ran it, or runs it now): the caller must
   * not refresh.
   */
  async start(claim: ClaimKey, at: string, resumed: boolean, started: (trx: Db) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await this.updateClaim(trx, claim)
        .set({ state: 'running', startedAt: at })
        .where('state', 'in', resumed ? ['enqueued', 'running'] : ['enqueued'])
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return false;
      await trx
        .updateTable('refresh_claims')
        .set({ state: 'done', startedAt: at })
        .where('entity_type', '=', claim.kind)
        .where('entity_id', '=', claim.id)
        .where('period', '!=', claim.period)
        .where('state', '=', 'enqueued')
        .execute();
      await started(trx);
      return true;
    });
  }

  /** A started claim's outcome: `done` when the refresh ran (whatever its charts answered), `failed` when it could not. */
  async finish(claim: ClaimKey, state: 'done' | 'failed'): Promise<void> {
    await this.updateClaim(this.db, claim).set({ state }).where('state', '=', 'running').execute();
  }

  /** An update of one claim row (in `db`, or in a transaction). */
  private updateClaim(db: Db, claim: ClaimKey) {
    return db.updateTable('refresh_claims').where('entity_type', '=', claim.kind).where('entity_id', '=', claim.id).where('period', '=', claim.period);
  }

  async insertRun(run: NewRefreshRun): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('refresh_runs')
        .values({
          team_id: run.team_id,
          project_id: run.project_id,
          chart_id: run.chart_id,
          trigger: run.trigger,
          status: run.status,
          startedAt: run.startedAt,
          durationMs: Math.round(run.durationMs),
          errorCode: run.error?.code ?? null,
          errorMessage: run.error?.message ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (run.charts.length > 0) {
        await trx
          .insertInto('refresh_run_charts')
          .values(
            run.charts.map((chart) => ({
              run_id: row.id,
              project_id: run.project_id,
              chart_id: chart.chart_id,
              status: chart.status,
              paths: toJson(chart.paths),
              rowsRead: chart.rowsRead,
              cacheHit: chart.cacheHit,
              durationMs: Math.round(chart.durationMs),
              errorCode: chart.error?.code ?? null,
              errorMessage: chart.error?.message ?? null,
            })),
          )
          .execute();
      }
      return row.id;
    });
  }

  /** A dashboard's runs, newest first. */
  async listByProject(projectId: number, page: { limit: number; offset: number }): Promise<{ runs: RefreshRun[]; total: number }> {
    const rows = await this.db
      .selectFrom('refresh_runs')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('startedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = await this.db.selectFrom('refresh_runs').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    return { runs: await this.withCharts(rows), total: Number(total.n) };
  }

  /** The runs a chart took part in, newest first, each showing that chart's entry only. */
  async listByChart(projectId: number, chartId: number, page: { limit: number; offset: number }): Promise<{ runs: RefreshRun[]; total: number }> {
    const base = this.db
      .selectFrom('refresh_runs')
      .innerJoin('refresh_run_charts', 'refresh_run_charts.run_id', 'refresh_runs.id')
      .where('refresh_runs.project_id', '=', projectId)
      .where('refresh_run_charts.chart_id', '=', chartId);
    const rows = await base
      .selectAll('refresh_runs')
      .orderBy('refresh_runs.startedAt', 'desc')
      .orderBy('refresh_runs.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { runs: await this.withCharts(rows, chartId), total: Number(total.n) };
  }

  /** Deletes runs started before `before` and claims older than `claimsBefore`. */
  async prune(before: string, claimsBefore: string): Promise<{ runs: number; claims: number }> {
    const runs = await this.db.deleteFrom('refresh_runs').where('startedAt', '<', before).executeTakeFirst();
    const claims = await this.db.deleteFrom('refresh_claims').where('claimedAt', '<', claimsBefore).executeTakeFirst();
    return { runs: Number(runs.numDeletedRows), claims: Number(claims.numDeletedRows) };
  }

  private async withCharts(
    rows: { id: number; project_id: number; chart_id: number | null; trigger: string; status: string; startedAt: Date | string; durationMs: number; errorCode: string | null; errorMessage: string | null }[],
    onlyChart?: number,
  ): Promise<RefreshRun[]> {
    if (rows.length === 0) return [];
    let query = this.db.selectFrom('refresh_run_charts').selectAll().where('run_id', 'in', rows.map((r) => r.id));
    if (onlyChart !== undefined) query = query.where('chart_id', '=', onlyChart);
    const entries = await query.orderBy('id').execute();
    return rows.map((row) => ({
      id: row.id,
      project_id: row.project_id,
      chart_id: row.chart_id,
      trigger: row.trigger as RefreshTrigger,
      status: row.status as RefreshStatus,
      startedAt: toIso(row.startedAt),
      durationMs: row.durationMs,
      error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
      charts: entries
        .filter((e) => e.run_id === row.id)
        .map((e) => ({
          chart_id: e.chart_id,
          status: e.status as ChartRunEntry['status'],
          paths: fromJson<ChartRunEntry['paths']>(e.paths, []),
          rowsRead: e.rowsRead,
          cacheHit: toBool(e.cacheHit),
          durationMs: e.durationMs,
          error: e.errorCode ? { code: e.errorCode, message: e.errorMessage ?? '' } : null,
        })),
    }));
  }
}
