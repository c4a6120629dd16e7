import type { Selectable } from 'kysely';
import type { Db } from '../../store/index.js';
import { fromJson, now, toBool, toIso, toJson } from '../../store/columns.js';
import type { AlertsTable } from '../../store/types.js';
import type { AlertRules, AlertType } from './alerts-evaluate.js';
import type { AlertEventView, AlertView } from './alerts-schemas.js';

export type AlertMediums = AlertView['mediums'];

/**
 * An alert as stored: the answered shape with its team, its type narrowed, and the webhook secret
 * as its encrypted envelope (never part of a response); its integrations are rows of their own.
 */
export type AlertRecord = Omit<AlertView, 'type' | 'webhookSecret' | 'events' | 'AlertIntegrations'> & {
  team_id: number;
  type: AlertType;
  webhookSecret: string | null;
};

export type AlertFields = Partial<Pick<AlertRecord, 'cdc_id' | 'name' | 'type' | 'rules' | 'recipients' | 'mediums' | 'webhookSecret' | 'active' | 'timeout'>>;

export interface Delivery {
  medium: 'email' | 'webhook' | 'integration';
  ok: boolean;
  /** HTTP status of the webhook, or the SMTP answer. */
  detail: string;
  /** Which integration, for the medium `integration`. */
  integration_id?: number;
}

/** A notification as answered, its deliveries typed by medium. */
export type AlertEvent = Omit<AlertEventView, 'deliveries'> & { deliveries: Delivery[] };

type Row = Selectable<AlertsTable>;

function toAlert(row: Row): AlertRecord {
  return {
    id: row.id,
    team_id: row.team_id,
    project_id: row.project_id,
    chart_id: row.chart_id,
    cdc_id: row.cdc_id,
    name: row.name,
    type: row.type as AlertType,
    rules: fromJson<AlertRules>(row.rules, {}),
    recipients: fromJson<string[]>(row.recipients, []),
    mediums: fromJson<AlertMediums>(row.mediums, {}),
    webhookSecret: row.webhook_secret,
    active: toBool(row.active),
    timeout: row.timeout,
    lastTriggeredAt: toIso(row.lastTriggeredAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function columns(fields: AlertFields) {
  const { rules, recipients, mediums, webhookSecret, ...plain } = fields;
  return {
    ...plain,
    ...(rules !== undefined ? { rules: toJson(rules) } : {}),
    ...(recipients !== undefined ? { recipients: toJson(recipients) } : {}),
    ...(mediums !== undefined ? { mediums: toJson(mediums) } : {}),
    ...(webhookSecret !== undefined ? { webhook_secret: webhookSecret } : {}),
  };
}

export class AlertsRepository {
  constructor(private readonly db: Db) {}

  async list(chartId: number): Promise<AlertRecord[]> {
    const rows = await this.db.selectFrom('alerts').selectAll().where('chart_id', '=', chartId).orderBy('id').execute();
    return rows.map(toAlert);
  }

  async find(chartId: number, id: number): Promise<AlertRecord | undefined> {
    const row = await this.db.selectFrom('alerts').selectAll().where('chart_id', '=', chartId).where('id', '=', id).executeTakeFirst();
    return row && toAlert(row);
  }

  async create(scope: { teamId: number; projectId: number; chartId: number }, fields: AlertFields & { type: AlertType }): Promise<AlertRecord> {
    const at = now();
    const row = await this.db
      .insertInto('alerts')
      .values({ ...columns(fields), type: fields.type, timeout: fields.timeout ?? 600, team_id: scope.teamId, project_id: scope.projectId, chart_id: scope.chartId, createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAlert(row);
  }

  async update(chartId: number, id: number, fields: AlertFields): Promise<AlertRecord | undefined> {
    const row = await this.db.updateTable('alerts').set({ ...columns(fields), updatedAt: now() }).where('chart_id', '=', chartId).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toAlert(row);
  }

  async delete(chartId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('alerts').where('chart_id', '=', chartId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Takes the right to notify: moves `lastTriggeredAt` only if it is still what this process read,
   * so two processes checking the same data notify once.
   */
  async markTriggered(id: number, previous: string | null, at: string, deactivate: boolean): Promise<boolean> {
    let query = this.db.updateTable('alerts').set({ lastTriggeredAt: at, ...(deactivate ? { active: false } : {}) }).where('id', '=', id);
    query = previous === null ? query.where('lastTriggeredAt', 'is', null) : query.where('lastTriggeredAt', '=', previous);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertEvent(event: Omit<AlertEvent, 'id'>): Promise<AlertEvent> {
    const row = await this.db
      .insertInto('alert_events')
      .values({ ...event, deliveries: toJson(event.deliveries) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...event, id: row.id };
  }

  async events(alertId: number, limit = 50): Promise<AlertEvent[]> {
    const rows = await this.db.selectFrom('alert_events').selectAll().where('alert_id', '=', alertId).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      alert_id: row.alert_id,
      chart_id: row.chart_id,
      run_id: row.run_id,
      value: row.value,
      message: row.message,
      deliveries: fromJson<Delivery[]>(row.deliveries, []),
      createdAt: toIso(row.createdAt),
    }));
  }
}
