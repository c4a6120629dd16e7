import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../columns.js';

/**
 * Every table of the interface spec and the API contract, created up front so later behaviour
 * adds code rather than schema churn. Column kinds map per dialect (see store/types.ts).
 */
export function initial(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const id = (t: CreateTableBuilder<string, never>) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const bool = pg ? 'boolean' : 'integer';
  const json = pg ? 'jsonb' : 'text';
  const ts = pg ? 'timestamptz' : 'text';
  const falsy = pg ? sql`false` : sql`0`;
  const truthy = pg ? sql`true` : sql`1`;

  type T = CreateTableBuilder<string, never>;
  const stamps = (t: T) =>
    t.addColumn('createdAt', ts, (c) => c.notNull()).addColumn('updatedAt', ts, (c) => c.notNull());
  const flag = (t: T, name: string, on = false) =>
    t.addColumn(name, bool, (c) => c.notNull().defaultTo(on ? truthy : falsy));

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await stamps(
        id(db.schema.createTable('users') as T)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('password_hash', 'text', (c) => c.notNull()),
      ).execute();

      const teams = id(db.schema.createTable('teams') as T).addColumn('name', 'text', (c) => c.notNull());
      await stamps(flag(flag(flag(teams, 'showBranding', true), 'allowReportRefresh'), 'allowReportExport')).execute();

      await id(db.schema.createTable('sessions') as T)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('expiresAt', ts, (c) => c.notNull())
        .addColumn('lastUsedAt', ts)
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

      await stamps(
        flag(
          id(db.schema.createTable('team_roles') as T)
            .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
            .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
            .addColumn('role', 'text', (c) => c.notNull())
            .addColumn('projects', json),
          'canExport',
        ).addUniqueConstraint('team_roles_team_user', ['team_id', 'user_id']),
      ).execute();
      await db.schema.createIndex('team_roles_user_id').on('team_roles').column('user_id').execute();

      await id(db.schema.createTable('api_keys') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('projects', json)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('lastUsedAt', ts)
        .execute();
      await db.schema.createIndex('api_keys_team_id').on('api_keys').column('team_id').execute();

      let connections = id(db.schema.createTable('connections') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('project_ids', json)
        .addColumn('oauth_id', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('subType', 'text');
      connections = flag(connections, 'active', true);
      for (const col of ['host', 'dbName', 'port', 'username', 'password']) connections = connections.addColumn(col, 'text');
      connections = flag(connections, 'srv');
      for (const col of ['options', 'connectionString', 'authentication', 'firebaseServiceAccount']) {
        connections = connections.addColumn(col, 'text');
      }
      connections = flag(connections, 'ssl').addColumn('sslMode', 'text');
      for (const col of ['sslCa', 'sslCaName', 'sslCert', 'sslCertName', 'sslKey', 'sslKeyName']) {
        connections = connections.addColumn(col, 'text');
      }
      await stamps(connections.addColumn('schema', json).addColumn('schemaUpdatedAt', ts)).execute();
      await db.schema.createIndex('connections_team_id').on('connections').column('team_id').execute();

      let datasets = id(db.schema.createTable('datasets') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('project_ids', json)
        .addColumn('chart_id', 'integer')
        .addColumn('connection_id', 'integer', (c) => c.references('connections.id').onDelete('set null'))
        .addColumn('main_dr_id', 'integer');
      datasets = flag(datasets, 'draft', true);
      for (const col of ['name', 'type', 'query', 'datasetColor', 'xAxis', 'xAxisOperation', 'yAxis', 'yAxisOperation', 'dateField', 'dateFormat', 'legend']) {
        datasets = datasets.addColumn(col, 'text');
      }
      for (const col of ['conditions', 'fieldsSchema', 'excludedFields', 'configuration', 'joinSettings']) {
        datasets = datasets.addColumn(col, json);
      }
      await stamps(datasets.addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))).execute();
      await db.schema.createIndex('datasets_team_id').on('datasets').column('team_id').execute();

      let requests = id(db.schema.createTable('data_requests') as T)
        .addColumn('dataset_id', 'integer', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
        .addColumn('connection_id', 'integer', (c) => c.references('connections.id').onDelete('cascade'))
        .addColumn('method', 'text')
        .addColumn('route', 'text')
        .addColumn('headers', 'text')
        .addColumn('body', 'text');
      requests = flag(requests, 'useGlobalHeaders', true).addColumn('query', 'text');
      requests = flag(requests, 'pagination')
        .addColumn('items', 'text')
        .addColumn('itemsLimit', 'integer')
        .addColumn('offset', 'text')
        .addColumn('paginationField', 'text')
        .addColumn('template', 'text');
      for (const col of ['conditions', 'configuration', 'variables', 'transform']) requests = requests.addColumn(col, json);
      await stamps(requests).execute();
      await db.schema.createIndex('data_requests_dataset_id').on('data_requests').column('dataset_id').execute();
      await db.schema.createIndex('data_requests_connection_id').on('data_requests').column('connection_id').execute();

      await stamps(
        flag(
          id(db.schema.createTable('variable_bindings') as T)
            .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
            .addColumn('entity_type', 'text', (c) => c.notNull())
            .addColumn('entity_id', 'text', (c) => c.notNull())
            .addColumn('name', 'text', (c) => c.notNull())
            .addColumn('type', 'text', (c) => c.notNull())
            .addColumn('default_value', 'text'),
          'required',
        ),
      ).execute();
      await db.schema.createIndex('variable_bindings_entity').on('variable_bindings').columns(['entity_type', 'entity_id']).execute();

      let projects = id(db.schema.createTable('projects') as T)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('brewName', 'text', (c) => c.notNull().unique());
      for (const col of ['dashboardTitle', 'description', 'backgroundColor', 'titleColor', 'headerCode', 'footerCode', 'logo', 'logoLink']) {
        projects = projects.addColumn(col, 'text');
      }
      projects = flag(flag(projects, 'public'), 'passwordProtected')
        .addColumn('password_hash', 'text')
        .addColumn('timezone', 'text')
        .addColumn('updateSchedule', json)
        .addColumn('lastUpdatedAt', ts);
      await stamps(projects).execute();
      await db.schema.createIndex('projects_team_id').on('projects').column('team_id').execute();

      let charts = id(db.schema.createTable('charts') as T)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('type', 'text')
        .addColumn('subType', 'text');
      charts = flag(flag(charts, 'public'), 'shareable').addColumn('chartData', json).addColumn('chartDataUpdated', ts);
      charts = flag(charts, 'displayLegend').addColumn('pointRadius', 'integer');
      charts = flag(charts, 'dataLabels')
        .addColumn('startDate', ts)
        .addColumn('endDate', ts)
        .addColumn('dateVarsFormat', 'text');
      charts = flag(flag(flag(charts, 'includeZeros', true), 'currentEndDate'), 'fixedStartDate')
        .addColumn('timeInterval', 'text', (c) => c.notNull().defaultTo('day'))
        .addColumn('autoUpdate', 'integer')
        .addColumn('lastAutoUpdate', ts);
      charts = flag(charts, 'draft', true)
        .addColumn('mode', 'text', (c) => c.notNull().defaultTo('chart'))
        .addColumn('maxValue', 'integer')
        .addColumn('minValue', 'integer')
        .addColumn('disabledExport', bool);
      charts = flag(charts, 'onReport', true).addColumn('xLabelTicks', 'text');
      for (const col of ['stacked', 'horizontal', 'showGrowth', 'invertGrowth']) charts = flag(charts, col);
      charts = flag(charts.addColumn('layout', json), 'isLogarithmic').addColumn('content', 'text').addColumn('ranges', json);
      charts = flag(charts, 'dashedLastPoint').addColumn('defaultRowsPerPage', 'integer').addColumn('dashboardOrder', 'integer');
      await stamps(charts).execute();
      await db.schema.createIndex('charts_project_id').on('charts').column('project_id').execute();

      let configs = (db.schema.createTable('chart_dataset_configs') as T)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('chart_id', 'integer', (c) => c.notNull().references('charts.id').onDelete('cascade'))
        .addColumn('dataset_id', 'integer', (c) => c.notNull().references('datasets.id').onDelete('cascade'));
      for (const col of ['xAxis', 'xAxisOperation', 'yAxis', 'yAxisOperation', 'dateField', 'dateFormat']) configs = configs.addColumn(col, 'text');
      configs = configs.addColumn('conditions', json).addColumn('formula', 'text').addColumn('datasetColor', 'text').addColumn('fillColor', json);
      configs = flag(flag(configs, 'fill'), 'multiFill')
        .addColumn('legend', 'text')
        .addColumn('pointRadius', 'integer')
        .addColumn('excludedFields', json)
        .addColumn('sort', 'text')
        .addColumn('columnsOrder', json)
        .addColumn('order', pg ? 'double precision' : 'real')
        .addColumn('maxRecords', 'integer')
        .addColumn('goal', pg ? 'double precision' : 'real')
        .addColumn('configuration', json);
      await stamps(configs).execute();
      await db.schema.createIndex('chart_dataset_configs_chart_id').on('chart_dataset_configs').column('chart_id').execute();
      await db.schema.createIndex('chart_dataset_configs_dataset_id').on('chart_dataset_configs').column('dataset_id').execute();

      await stamps(
        flag(
          id(db.schema.createTable('share_policies') as T)
            .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
            .addColumn('entity_type', 'text', (c) => c.notNull())
            .addColumn('entity_id', 'integer', (c) => c.notNull())
            .addColumn('share_string', 'text', (c) => c.notNull().unique())
            .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
            .addColumn('params', json),
          'allow_params',
        )
          .addColumn('expires_at', ts)
          .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(1)),
      ).execute();
      await db.schema.createIndex('share_policies_entity').on('share_policies').columns(['entity_type', 'entity_id']).execute();
    },
  };
}
