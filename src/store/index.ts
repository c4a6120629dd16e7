import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLiteDatabase from 'better-sqlite3';
import {
  DeleteQueryNode,
  InsertQueryNode,
  Kysely,
  Migrator,
  OperationNodeTransformer,
  PostgresDialect,
  SelectQueryNode,
  SqliteDialect,
  sql,
  UpdateQueryNode,
  type KyselyPlugin,
  type LogEvent,
  type Migration,
  type MigrationProvider,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SqliteDatabase,
  type SqliteStatement,
  type UnknownRow,
  type ValueNode,
  type PrimitiveValueListNode,
} from 'kysely';
import type pg from 'pg';
import type { Dialect } from './columns.js';
import { initial } from './migrations/0001-initial.js';
import { personalApiKeys } from './migrations/0009-personal-api-keys.js';
import { refreshes } from './migrations/0012-refreshes.js';
import { dashboardViewVersion } from './migrations/0013-dashboard-view-version.js';
import { refreshClaimState } from './migrations/0014-refresh-claim-state.js';
import { dashboardFilters } from './migrations/0015-dashboard-filters.js';
import { invitations } from './migrations/0017-invitations.js';
import { savedQueriesIntegrations } from './migrations/0018-saved-queries-integrations.js';
import { chartVisualization } from './migrations/0019-chart-visualization.js';
import { cdcBreakdown } from './migrations/0020-cdc-breakdown.js';
import { deliveries } from './migrations/0021-deliveries.js';
import { chartLastErrorStackPercent } from './migrations/0022-chart-last-error-stack-percent.js';
import { dashboardTemplates } from './migrations/0023-dashboard-templates.js';
import { cdcBreakdownSeries } from './migrations/0024-cdc-breakdown-series.js';
import { deliveryResume } from './migrations/0025-delivery-resume.js';
import { chartMissingValues } from './migrations/0026-chart-missing-values.js';
import type { Database } from './types.js';

export type { Dialect } from './columns.js';
export type Db = Kysely<Database>;

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

export type StoreTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** better-sqlite3 refuses JS booleans as parameters; store them as 0/1 like SQLite itself does. */
class SqliteBooleanTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const base = super.transformValue(node);
    return typeof base.value === 'boolean' ? { ...base, value: base.value ? 1 : 0 } : base;
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    const base = super.transformPrimitiveValueList(node);
    return { ...base, values: base.values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)) };
  }
}

/**
 * Booleans in schema statements (column defaults in migrations). Reads and writes are left
 * alone: their values are bound as parameters, which `PreparedSqlite` turns into 0/1, so the
 * tree of every request's queries is not copied to find them.
 */
class SqliteBooleanPlugin implements KyselyPlugin {
  readonly #transformer = new SqliteBooleanTransformer();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { node } = args;
    if (SelectQueryNode.is(node) || InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node)) return node;
    return this.#transformer.transformNode(node);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

type Parameters = ReadonlyArray<unknown>;

function bindable(parameters: Parameters): Parameters {
  for (const value of parameters) {
    if (typeof value === 'boolean') return parameters.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
  }
  return parameters;
}

type Row = Record<string, unknown>;

/**
 * A function that turns one row's values into the object better-sqlite3 would have made, as one
 * object literal: several times cheaper than the driver setting each column on a new object,
 * which for a chart's forty-odd columns cost more than running the query. Same keys, same order,
 * same values; of two columns with one name the later wins, as with the driver.
 */
function rowMaker(columns: readonly string[]): (values: unknown[]) => Row {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: unknown[]) => Row;
}

/** A schema statement: it may change what `select *` returns, so no prepared statement is kept past it. */
const SCHEMA_CHANGE = /^\s*(?:create|alter|drop)\b/i;

/**
 * The SQLite connection as Kysely's dialect uses it. Each distinct SQL text is prepared once and
 * its statement reused: compiling a statement costs SQLite as much as running a small one, and a
 * request runs several. Kysely runs one statement at a time on this connection (a mutex; a
 * stream holds it until done), so a statement is never in use twice. Statements hold no data; a
 * schema statement empties the cache, and a row whose width no longer matches its columns (the
 * schema changed under the process) has them read again. The least recently used go past `max`.
 * Reading statements return their values as arrays, made into row objects by `rowMaker`.
 */
class PreparedSqlite implements SqliteDatabase {
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(
    private readonly database: SQLiteDatabase.Database,
    private readonly max = 500,
  ) {}

  prepare(sql: string): SqliteStatement {
    const known = this.statements.get(sql);
    if (known) {
      this.statements.delete(sql);
      this.statements.set(sql, known);
      return known;
    }
    if (SCHEMA_CHANGE.test(sql)) this.statements.clear();
    const prepared = this.wrap(this.database.prepare(sql));
    this.statements.set(sql, prepared);
    if (this.statements.size > this.max) this.statements.delete(this.statements.keys().next().value!);
    return prepared;
  }

  close(): void {
    this.statements.clear();
    this.database.close();
  }

  private wrap(statement: SQLiteDatabase.Statement): SqliteStatement {
    const run = (parameters: Parameters) => statement.run(bindable(parameters));
    if (!statement.reader) {
      return { reader: false, all: (parameters) => statement.all(bindable(parameters)), run, iterate: (parameters) => statement.iterate(bindable(parameters)) };
    }
    statement.raw(true);
    let width = -1;
    let make: (values: unknown[]) => Row = () => ({});
    const maker = (values: unknown[]) => {
      if (values.length !== width) {
        const columns = statement.columns().map((column) => column.name);
        width = columns.length;
        make = rowMaker(columns);
      }
      return make;
    };
    return {
      reader: true,
      all: (parameters) => {
        const rows = statement.all(bindable(parameters)) as unknown[][];
        if (rows.length === 0) return rows;
        const toRow = maker(rows[0]!);
        const out = new Array<Row>(rows.length);
        for (let i = 0; i < rows.length; i++) out[i] = toRow(rows[i]!);
        return out;
      },
      run,
      *iterate(parameters) {
        for (const values of statement.iterate(bindable(parameters)) as IterableIterator<unknown[]>) yield maker(values)(values);
      },
    };
  }
}

/**
 * Type parsing for the store's own pool only (user queries have their own, in sources/): bigint
 * counts as numbers, and json/jsonb as raw text so both dialects hand `fromJson` JSON text (a
 * parsed jsonb string would otherwise arrive without its quotes).
 */
function storeTypes(types: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === types.builtins.INT8) return (value: string) => Number(value);
      if (oid === types.builtins.JSON || oid === types.builtins.JSONB) return (value: string) => value;
      return types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
}

export interface StoreOptions {
  /** Told the SQL of every statement the store runs (query counts in tests and benchmarks). */
  onQuery?: (sql: string) => void;
}

export function createStore(target: StoreTarget, options: StoreOptions = {}): Store {
  const { onQuery } = options;
  const log = onQuery
    ? (event: LogEvent): void => {
        if (event.level === 'query') onQuery(event.query.sql);
      }
    : undefined;
  if (target.kind === 'sqlite') {
    if (target.file !== ':memory:') mkdirSync(path.dirname(target.file), { recursive: true });
    const SQLite = sqliteDriver();
    const database = new SQLite(target.file);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    database.pragma('synchronous = NORMAL');
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new PreparedSqlite(database) }),
      plugins: [new SqliteBooleanPlugin()],
      ...(log ? { log } : {}),
    });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  // pg is loaded only for a Postgres store: the embedded default never needs it.
  const { Pool, types } = createRequire(import.meta.url)('pg') as typeof pg;
  const pool = new Pool({ connectionString: target.url, max: 10, types: storeTypes(types) });
  // An idle client that loses its server (restart, failover, forced drop) emits an error; without a
  // listener that would crash the process. The pool discards the client and the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/**
 * The SQLite driver for this runtime. better-sqlite3 12 aborts Node 24 processes (its statements
 * are raw ObjectWraps whose finalizers run after Node's environment is gone), and 13 fixes that
 * but crashes on Node 20; both are installed (13 as `better-sqlite3-napi`, N-API prebuilds) and
 * the one that works here is loaded. Same API, same file format.
 */
function sqliteDriver(): typeof SQLiteDatabase {
  const major = Number(process.versions.node.split('.')[0]);
  const require = createRequire(import.meta.url);
  return require(major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3') as typeof SQLiteDatabase;
}

function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': initial(dialect),
    '0009-personal-api-keys': personalApiKeys(dialect),
    '0012-refreshes': refreshes(dialect),
    '0013-dashboard-view-version': dashboardViewVersion(dialect),
    '0014-refresh-claim-state': refreshClaimState(dialect),
    '0015-dashboard-filters': dashboardFilters(dialect),
    '0017-invitations': invitations(dialect),
    '0018-saved-queries-integrations': savedQueriesIntegrations(dialect),
    '0019-chart-visualization': chartVisualization(dialect),
    '0020-cdc-breakdown': cdcBreakdown(dialect),
    '0021-deliveries': deliveries(dialect),
    '0022-chart-last-error-stack-percent': chartLastErrorStackPercent(dialect),
    '0023-dashboard-templates': dashboardTemplates(dialect),
    '0024-cdc-breakdown-series': cdcBreakdownSeries(dialect),
    '0025-delivery-resume': deliveryResume(dialect),
    '0026-chart-missing-values': chartMissingValues(dialect),
  };
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

export interface MigrationReport {
  applied: string[];
}

/** Brings the store to the latest schema. On Postgres the Migrator holds an advisory lock, so concurrent starts are safe. */
export async function migrateToLatest(store: Store): Promise<MigrationReport> {
  const migrator = new Migrator({ db: store.db, provider: new StaticProvider(migrationsFor(store.dialect)) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** True when every known migration has been applied (readiness). */
export async function isMigrated(store: Store): Promise<boolean> {
  const migrator = new Migrator({ db: store.db, provider: new StaticProvider(migrationsFor(store.dialect)) });
  const all = await migrator.getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}

export async function ping(store: Store): Promise<void> {
  await sql`select 1`.execute(store.db);
}
