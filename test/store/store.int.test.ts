import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TeamsRepository } from '../../src/modules/identity/teams-repository.js';
import { UsersRepository } from '../../src/modules/identity/users-repository.js';
import { fromJson, now, toBool, toIso } from '../../src/store/columns.js';
import { createStore, isMigrated, migrateToLatest, type Store } from '../../src/store/index.js';
import pg from 'pg';
import { createTempDatabase } from '../helpers/postgres-server.js';

const TABLES = [
  'alert_events',
  'alert_integrations',
  'alerts',
  'api_keys',
  'chart_dataset_configs',
  'chart_templates',
  'charts',
  'connections',
  'dashboard_filters',
  'dashboard_view_versions',
  'data_requests',
  'datasets',
  'integrations',
  'personal_api_keys',
  'projects',
  'refresh_claims',
  'refresh_run_charts',
  'refresh_runs',
  'saved_queries',
  'sessions',
  'share_policies',
  'subscription_runs',
  'subscriptions',
  'team_invitations',
  'team_roles',
  'teams',
  'users',
  'variable_bindings',
];

interface Target {
  name: string;
  open(): Promise<{ store: Store; url: string; cleanup(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-store-'));
      const file = path.join(dir, 'store.db');
      return { store: createStore({ kind: 'sqlite', file }), url: file, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    async open() {
      const db = await createTempDatabase(inject('postgresUrl'));
      return { store: createStore({ kind: 'postgres', url: db.url }), url: db.url, cleanup: db.drop };
    },
  },
];

describe.each(targets)('store on $name', (target) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let reopen: () => Store;
  let url: string;

  beforeAll(async () => {
    const opened = await target.open();
    store = opened.store;
    cleanup = opened.cleanup;
    url = opened.url;
    reopen = () => createStore(target.name === 'sqlite' ? { kind: 'sqlite', file: opened.url } : { kind: 'postgres', url: opened.url });
    await migrateToLatest(store);
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  it('creates a table for every resource', async () => {
    const tables = (await store.db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('kysely_'));
    expect(tables.sort()).toEqual(TABLES);
  });

  it('is migrated, and migrating again applies nothing', async () => {
    expect(await isMigrated(store)).toBe(true);
    expect((await migrateToLatest(store)).applied).toEqual([]);
  });

  it('concurrent migrations from two processes are safe', async () => {
    const a = reopen();
    const b = reopen();
    const results = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
    expect(results.flatMap((r) => r.applied)).toEqual([]);
    await a.close();
    await b.close();
  });

  it('round-trips booleans, JSON and timestamps the same way', async () => {
    const teams = new TeamsRepository(store.db);
    const team = await teams.create({ name: 'Types', showBranding: false, allowReportExport: true }, null);
    expect(team).toMatchObject({ showBranding: false, allowReportRefresh: false, allowReportExport: true });
    expect(team.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const at = now();
    const project = await store.db
      .insertInto('projects')
      .values({ team_id: team.id, name: 'P', brewName: `p-${team.id}`, public: true, updateSchedule: JSON.stringify({ frequency: 'daily', time: { hour: 8 } }), createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await store.db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
    expect(toBool(row.public)).toBe(true);
    expect(toBool(row.passwordProtected)).toBe(false);
    expect(fromJson(row.updateSchedule, {})).toEqual({ frequency: 'daily', time: { hour: 8 } });
    expect(toIso(row.createdAt)).toBe(at);
    const chart = await store.db
      .insertInto('charts')
      .values({ project_id: project.id, name: 'C', type: 'line', timeInterval: 'day', mode: 'chart', chartData: JSON.stringify({ data: { labels: ['a'] } }), createdAt: at, updatedAt: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(toBool(chart.includeZeros)).toBe(true);
    expect(toBool(chart.draft)).toBe(true);
    expect(fromJson(chart.chartData, null)).toEqual({ data: { labels: ['a'] } });
    // A JSON column holding a bare string or number reads back as that value on both dialects.
    await store.db.updateTable('charts').set({ layout: JSON.stringify('#123456'), ranges: JSON.stringify(42) }).where('id', '=', chart.id).execute();
    const scalar = await store.db.selectFrom('charts').select(['layout', 'ranges']).where('id', '=', chart.id).executeTakeFirstOrThrow();
    expect(fromJson(scalar.layout, null)).toBe('#123456');
    expect(fromJson(scalar.ranges, null)).toBe(42);
  });

  it('enforces unique emails and unique team membership', async () => {
    const users = new UsersRepository(store.db);
    const teams = new TeamsRepository(store.db);
    const user = await users.create({ name: 'U', email: 'unique@example.com', passwordHash: 'h' });
    await expect(users.create({ name: 'U2', email: 'unique@example.com', passwordHash: 'h' })).rejects.toThrow();
    const team = await teams.create({ name: 'T' }, user.id);
    await expect(teams.addRole(team.id, user.id, 'teamAdmin', [])).rejects.toThrow();
    expect(await teams.countOwners(team.id)).toBe(1);
  });

  it('deleting a team cascades to everything it owns', async () => {
    const db = store.db;
    const at = now();
    const teams = new TeamsRepository(db);
    const users = new UsersRepository(db);
    const user = await users.create({ name: 'Cascade', email: 'cascade@example.com', passwordHash: 'h' });
    const team = await teams.create({ name: 'Cascade' }, user.id);
    const connection = await db.insertInto('connections').values({ team_id: team.id, name: 'c', type: 'postgres', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    const dataset = await db.insertInto('datasets').values({ team_id: team.id, connection_id: connection.id, name: 'd', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('data_requests').values({ dataset_id: dataset.id, connection_id: connection.id, query: 'select 1', createdAt: at, updatedAt: at }).execute();
    await db.insertInto('variable_bindings').values({ team_id: team.id, entity_type: 'DataRequest', entity_id: '1', name: 'v', type: 'string', createdAt: at, updatedAt: at }).execute();
    const project = await db.insertInto('projects').values({ team_id: team.id, name: 'p', brewName: `cascade-${team.id}`, createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    const chart = await db.insertInto('charts').values({ project_id: project.id, timeInterval: 'day', mode: 'chart', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('chart_dataset_configs').values({ id: crypto.randomUUID(), chart_id: chart.id, dataset_id: dataset.id, createdAt: at, updatedAt: at }).execute();
    await db.insertInto('share_policies').values({ team_id: team.id, entity_type: 'Project', entity_id: project.id, share_string: `s-${team.id}`, token_version: 1, createdAt: at, updatedAt: at }).execute();
    const filter = crypto.randomUUID();
    await db.insertInto('dashboard_filters').values({ id: filter, project_id: project.id, configuration: JSON.stringify({ type: 'date', preset: 'today' }), position: 0, createdAt: at, updatedAt: at }).execute();
    await db.insertInto('api_keys').values({ team_id: team.id, created_by: user.id, name: 'k', role: 'teamAdmin', token_hash: `hash-${team.id}`, createdAt: at }).execute();

    expect(await teams.delete(team.id)).toBe(true);
    for (const table of ['connections', 'datasets', 'projects', 'share_policies', 'api_keys', 'team_roles', 'variable_bindings'] as const) {
      const rows = await db.selectFrom(table).select('team_id').where('team_id', '=', team.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await db.selectFrom('data_requests').select('id').where('dataset_id', '=', dataset.id).execute()).toEqual([]);
    expect(await db.selectFrom('charts').select('id').where('project_id', '=', project.id).execute()).toEqual([]);
    expect(await db.selectFrom('chart_dataset_configs').select('id').where('chart_id', '=', chart.id).execute()).toEqual([]);
    expect(await db.selectFrom('dashboard_filters').select('id').where('id', '=', filter).execute()).toEqual([]);
  });

  it("moves a dashboard's view version with its charts, configs and own policies, and forgets it with the dashboard", async () => {
    const db = store.db;
    const at = now();
    const user = await new UsersRepository(db).create({ name: 'Views', email: 'views@example.com', passwordHash: 'h' });
    const teams = new TeamsRepository(db);
    const team = await teams.create({ name: 'Views' }, user.id);
    const dataset = await db.insertInto('datasets').values({ team_id: team.id, name: 'd', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    const newProject = async (name: string) =>
      (await db.insertInto('projects').values({ team_id: team.id, name, brewName: `${name}-${team.id}`, createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow()).id;
    const [a, b] = [await newProject('views-a'), await newProject('views-b')];
    const version = async (projectId: number) =>
      (await db.selectFrom('dashboard_view_versions').select('version').where('project_id', '=', projectId).executeTakeFirst())?.version;

    expect(await version(a)).toBeUndefined();
    const chart = await db.insertInto('charts').values({ project_id: a, timeInterval: 'day', mode: 'chart', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    expect(await version(a)).toBe(1);
    await db.updateTable('charts').set({ chartData: JSON.stringify({ data: {} }) }).where('id', '=', chart.id).execute();
    expect(await version(a)).toBe(2);
    const cdc = crypto.randomUUID();
    await db.insertInto('chart_dataset_configs').values({ id: cdc, chart_id: chart.id, dataset_id: dataset.id, createdAt: at, updatedAt: at }).execute();
    expect(await version(a)).toBe(3);
    await db.updateTable('chart_dataset_configs').set({ legend: 'L' }).where('id', '=', cdc).execute();
    expect(await version(a)).toBe(4);
    // A chart's policies are not part of the dashboard's view; the dashboard's own are.
    await db.insertInto('share_policies').values({ team_id: team.id, entity_type: 'Chart', entity_id: chart.id, share_string: `c-${team.id}`, createdAt: at, updatedAt: at }).execute();
    expect(await version(a)).toBe(4);
    await db.insertInto('share_policies').values({ team_id: team.id, entity_type: 'Project', entity_id: a, share_string: `p-${team.id}`, createdAt: at, updatedAt: at }).execute();
    expect(await version(a)).toBe(5);
    // Moving a chart to another dashboard moves both, once each.
    await db.updateTable('charts').set({ project_id: b }).where('id', '=', chart.id).execute();
    expect([await version(a), await version(b)]).toEqual([6, 1]);
    // Its filters are part of a dashboard's view.
    const filter = crypto.randomUUID();
    await db.insertInto('dashboard_filters').values({ id: filter, project_id: a, configuration: JSON.stringify({ type: 'date', preset: 'today' }), position: 0, createdAt: at, updatedAt: at }).execute();
    expect(await version(a)).toBe(7);
    await db.updateTable('dashboard_filters').set({ position: 1 }).where('id', '=', filter).execute();
    expect(await version(a)).toBe(8);
    await db.deleteFrom('dashboard_filters').where('id', '=', filter).execute();
    expect(await version(a)).toBe(9);
    await db.insertInto('dashboard_filters').values({ id: crypto.randomUUID(), project_id: a, configuration: '{"type":"date"}', position: 0, createdAt: at, updatedAt: at }).execute();
    expect(await version(a)).toBe(10);
    // Deleting the dataset takes the config from the chart (cascade): the chart's dashboard moves.
    await db.deleteFrom('datasets').where('id', '=', dataset.id).execute();
    expect(await version(b)).toBe(2);

    // A deleted dashboard's counter goes with it, cascades included, and none is left behind.
    await db.deleteFrom('projects').where('id', '=', a).execute();
    expect(await version(a)).toBeUndefined();
    expect(await teams.delete(team.id)).toBe(true);
    expect(await version(b)).toBeUndefined();
  });

  // Postgres locks rows: the delete holds the dashboard's row and waits for the chart's, which the
  // writer holds while its trigger bumps the version. SQLite writes one at a time: no such race.
  it.runIf(target.name === 'postgres')('lets a chart be written while its dashboard is being deleted, without a deadlock', async () => {
    const db = store.db;
    const at = now();
    const user = await new UsersRepository(db).create({ name: 'Race', email: 'race@example.com', passwordHash: 'h' });
    const team = await new TeamsRepository(db).create({ name: 'Race' }, user.id);
    const project = await db.insertInto('projects').values({ team_id: team.id, name: 'race', brewName: `race-${team.id}`, createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();
    const chart = await db.insertInto('charts').values({ project_id: project.id, timeInterval: 'day', mode: 'chart', createdAt: at, updatedAt: at }).returning('id').executeTakeFirstOrThrow();

    const writer = new pg.Client({ connectionString: url });
    const deleter = new pg.Client({ connectionString: url });
    await writer.connect();
    await deleter.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT id FROM charts WHERE id = $1 FOR UPDATE', [chart.id]);
      const deleterPid = (await deleter.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const deleting = deleter.query('DELETE FROM projects WHERE id = $1', [project.id]);
      let finished = false;
      void deleting.then(
        () => (finished = true),
        () => (finished = true),
      );
      // Until the delete holds the dashboard's row and waits for the chart's (it cannot finish before).
      let waiting = false;
      while (!waiting && !finished) {
        const { rows } = await writer.query<{ wait: string | null }>('SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1', [deleterPid]);
        waiting = rows[0]?.wait === 'Lock';
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(waiting).toBe(true);
      await writer.query('UPDATE charts SET "chartData" = $1 WHERE id = $2', [JSON.stringify({ data: {} }), chart.id]);
      await writer.query('COMMIT');
      expect((await deleting).rowCount).toBe(1);
    } finally {
      await writer.end();
      await deleter.end();
    }
    expect(await db.selectFrom('charts').select('id').where('id', '=', chart.id).execute()).toEqual([]);
    expect(await db.selectFrom('dashboard_view_versions').select('version').where('project_id', '=', project.id).execute()).toEqual([]);
  });

  it('rolls back a failed transaction completely', async () => {
    const users = new UsersRepository(store.db);
    await expect(
      store.db.transaction().execute(async (trx) => {
        await users.create({ name: 'Ghost', email: 'ghost@example.com', passwordHash: 'h' }, trx);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await users.findByEmail('ghost@example.com')).toBeUndefined();
  });

  it('sessions expire by time', async () => {
    const users = new UsersRepository(store.db);
    const user = await users.create({ name: 'S', email: 'sessions@example.com', passwordHash: 'h' });
    await users.createSession(user.id, 'live-hash', new Date(Date.now() + 60_000));
    await users.createSession(user.id, 'dead-hash', new Date(Date.now() - 60_000));
    expect(await users.findSession('live-hash')).toMatchObject({ userId: user.id });
    expect(await users.findSession('dead-hash')).toBeUndefined();
  });

  it('uses the dialect’s native types', async () => {
    if (store.dialect === 'postgres') {
      const { rows } = await sql<{ data_type: string }>`select data_type from information_schema.columns where table_name = 'charts' and column_name = 'chartData'`.execute(store.db);
      expect(rows[0]?.data_type).toBe('jsonb');
    } else {
      const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(store.db);
      expect(rows[0]?.foreign_keys).toBe(1);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
    }
  });
});
