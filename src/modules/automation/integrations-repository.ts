import type { Selectable } from 'kysely';
import type { Db } from '../../store/index.js';
import { now, toBool, toIso } from '../../store/columns.js';
import type { AlertIntegrationsTable, IntegrationsTable } from '../../store/types.js';
import type { AlertIntegrationView } from './alerts-schemas.js';

/** An integration as stored: its URL and signing key are encrypted envelopes. */
export interface IntegrationRecord {
  id: number;
  team_id: number;
  name: string;
  type: string;
  url: string;
  slackMode: boolean;
  webhookSecret: string;
  createdAt: string;
  updatedAt: string;
}

export type IntegrationFields = Partial<Pick<IntegrationRecord, 'name' | 'url' | 'slackMode' | 'webhookSecret'>>;

export type AlertIntegration = AlertIntegrationView;

function toIntegration(row: Selectable<IntegrationsTable>): IntegrationRecord {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    type: row.type,
    url: row.url,
    slackMode: toBool(row.slackMode),
    webhookSecret: row.webhook_secret,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function toLink(row: Selectable<AlertIntegrationsTable>): AlertIntegration {
  return {
    id: row.id,
    alert_id: row.alert_id,
    integration_id: row.integration_id,
    enabled: toBool(row.enabled),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function columns(fields: IntegrationFields) {
  const { webhookSecret, ...plain } = fields;
  return { ...plain, ...(webhookSecret !== undefined ? { webhook_secret: webhookSecret } : {}) };
}

/** Integrations of a team, and which of them each alert notifies. Every read takes the team. */
export class IntegrationsRepository {
  constructor(private readonly db: Db) {}

  async list(teamId: number): Promise<IntegrationRecord[]> {
    const rows = await this.db.selectFrom('integrations').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
    return rows.map(toIntegration);
  }

  async find(teamId: number, id: number): Promise<IntegrationRecord | undefined> {
    const row = await this.db.selectFrom('integrations').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return row && toIntegration(row);
  }

  async create(teamId: number, fields: Required<Pick<IntegrationRecord, 'name' | 'type' | 'url' | 'slackMode' | 'webhookSecret'>>): Promise<IntegrationRecord> {
    const at = now();
    const row = await this.db
      .insertInto('integrations')
      .values({
        team_id: teamId,
        name: fields.name,
        type: fields.type,
        url: fields.url,
        slackMode: fields.slackMode,
        webhook_secret: fields.webhookSecret,
        createdAt: at,
        updatedAt: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toIntegration(row);
  }

  async update(teamId: number, id: number, fields: IntegrationFields): Promise<IntegrationRecord | undefined> {
    const row = await this.db
      .updateTable('integrations')
      .set({ ...columns(fields), updatedAt: now() })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toIntegration(row);
  }

  /** Its alert links go with it (foreign key cascade). */
  async delete(teamId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('integrations').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The links of these alerts, by alert id. */
  async linksOf(alertIds: readonly number[]): Promise<Map<number, AlertIntegration[]>> {
    const out = new Map<number, AlertIntegration[]>(alertIds.map((id) => [id, []]));
    if (alertIds.length === 0) return out;
    const rows = await this.db.selectFrom('alert_integrations').selectAll().where('alert_id', 'in', [...alertIds]).orderBy('id').execute();
    for (const row of rows) out.get(row.alert_id)?.push(toLink(row));
    return out;
  }

  /** Makes the alert's links exactly these (integration ids already checked against the team), in one transaction. */
  async replaceLinks(alertId: number, links: readonly { integration_id: number; enabled: boolean }[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('alert_integrations').selectAll().where('alert_id', '=', alertId).execute();
      const wanted = new Map(links.map((l) => [l.integration_id, l.enabled]));
      const gone = existing.filter((row) => !wanted.has(row.integration_id)).map((row) => row.id);
      if (gone.length > 0) await trx.deleteFrom('alert_integrations').where('id', 'in', gone).execute();
      const at = now();
      for (const [integrationId, enabled] of wanted) {
        const row = existing.find((r) => r.integration_id === integrationId);
        if (!row) {
          await trx.insertInto('alert_integrations').values({ alert_id: alertId, integration_id: integrationId, enabled, createdAt: at, updatedAt: at }).execute();
        } else if (toBool(row.enabled) !== enabled) {
          await trx.updateTable('alert_integrations').set({ enabled, updatedAt: at }).where('id', '=', row.id).execute();
        }
      }
    });
  }

  /** The enabled integrations of an alert, with their secrets (for delivering). */
  async enabledFor(alertId: number, teamId: number): Promise<IntegrationRecord[]> {
    const rows = await this.db
      .selectFrom('alert_integrations')
      .innerJoin('integrations', 'integrations.id', 'alert_integrations.integration_id')
      .selectAll('integrations')
      .where('alert_integrations.alert_id', '=', alertId)
      .where('alert_integrations.enabled', '=', true)
      .where('integrations.team_id', '=', teamId)
      .orderBy('integrations.id')
      .execute();
    return rows.map(toIntegration);
  }

  /**
   * Rewrites each envelope (URL and signing key) through `reencrypt`, in one transaction (`plotline
   * rotate-key`); returns how many changed.
   */
  async reencryptAll(reencrypt: (envelope: string) => string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let changed = 0;
      for (const row of await trx.selectFrom('integrations').select(['id', 'url', 'webhook_secret']).execute()) {
        const url = reencrypt(row.url);
        const secret = reencrypt(row.webhook_secret);
        const count = Number(url !== row.url) + Number(secret !== row.webhook_secret);
        if (count === 0) continue;
        await trx.updateTable('integrations').set({ url, webhook_secret: secret }).where('id', '=', row.id).execute();
        changed += count;
      }
      return changed;
    });
  }
}
