import { InvalidQueryError } from '../errors.js';
import { refuse, unverifiable } from './refusal.js';

/**
 * The Postgres statement check: the text is parsed by Postgres's own parser (libpg-query, the
 * server's grammar compiled to WebAssembly), so what is checked is exactly what the server would
 * run. One statement; the root must be a reading statement; the whole tree is walked for nested
 * statements, SELECT … INTO, locking clauses and functions that read files, write, wait or
 * administer the server.
 */

/** Function names refused outright (compared in lower case, whatever the schema or quoting). */
const DENIED_FUNCTIONS = new Set([
  'pg_stat_file',
  'loread',
  'lowrite',
  'set_config',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_promote',
  'pg_start_backup',
  'pg_stop_backup',
  'pg_import_system_collations',
  'pg_notify',
  'nextval',
  'setval',
  'pg_current_xact_id',
  'pg_current_xact_id_if_assigned',
  'gin_clean_pending_list',
  'pg_truncate_visibility_map',
  'pg_stat_statements_reset',
  // These run SQL given as text, which would escape this check.
  'query_to_xml',
  'query_to_xmlschema',
  'query_to_xml_and_xmlschema',
  'cursor_to_xml',
  'cursor_to_xmlschema',
  'ts_stat',
  'ts_rewrite',
]);

/** Function name prefixes refused: file access, large objects, remote links, waits, locks, admin. */
const DENIED_PREFIXES = [
  'pg_read_',
  'pg_ls_',
  'pg_file_',
  'pg_logdir_',
  'lo_',
  'dblink',
  'pg_sleep',
  'pg_advisory',
  'pg_try_advisory',
  'txid_',
  'pg_rotate_logfile',
  'pg_create_',
  'pg_drop_',
  'pg_copy_',
  'pg_replication_',
  'pg_logical_',
  'pg_switch_',
  'pg_wal_',
  'pg_xlog_',
  'pg_backup_',
  'pg_stat_reset',
  'pg_log_',
  'binary_upgrade_',
  'brin_summarize',
  'brin_desummarize',
];

/** The root statements a run may be. VALUES and TABLE parse as a SelectStmt. */
const READING_ROOTS = new Set(['SelectStmt', 'ExplainStmt', 'VariableShowStmt']);

type ParseSync = (sql: string) => unknown;

let loaded: Promise<ParseSync> | undefined;

/** Loads the parser (WebAssembly) once, on the first Postgres check rather than at boot. */
export function loadPostgresParser(): Promise<ParseSync> {
  loaded ??= (async () => {
    const parser = await import('libpg-query');
    await parser.loadModule();
    return parser.parseSync;
  })().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

type Node = Record<string, unknown>;

export async function assertReadOnlyPostgres(sql: string): Promise<void> {
  const parseSync = await loadPostgresParser();
  let tree: { stmts?: Array<{ stmt?: Node }> };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch (error) {
    throw unverifiable('PostgreSQL', (error as Error).message);
  }
  const statements = tree.stmts ?? [];
  if (statements.length === 0) throw new InvalidQueryError('The SQL query is empty');
  if (statements.length > 1) throw refuse(`the query holds ${statements.length} statements; only one statement can be run`);
  const root = statements[0]!.stmt ?? {};
  const kind = Object.keys(root)[0] ?? 'unknown';
  if (!READING_ROOTS.has(kind)) throw refuse(`${statementName(kind)} is not a reading statement`);
  if (kind === 'ExplainStmt') {
    const inner = ((root['ExplainStmt'] as Node)['query'] ?? {}) as Node;
    const innerKind = Object.keys(inner)[0] ?? 'unknown';
    if (innerKind !== 'SelectStmt') throw refuse(`EXPLAIN of ${statementName(innerKind)} is not a reading statement`);
  }
  walk(root, kind);
}

/** Visits every node below `node`; `key` is the field (or node type) it was found under. */
function walk(value: unknown, key: string): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, key);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Node;
  for (const [field, child] of Object.entries(node)) {
    if (child === null || child === undefined) continue;
    if (field.endsWith('Stmt') && !READING_ROOTS.has(field)) throw refuse(`${statementName(field)} is not a reading statement`);
    if (field === 'intoClause') throw refuse('SELECT … INTO creates a table');
    if (field === 'lockingClause') throw refuse('locking clauses (FOR UPDATE/SHARE) take row locks');
    if (field === 'FuncCall') checkFunction((child as Node)['funcname']);
    walk(child, field);
  }
}

function checkFunction(funcname: unknown): void {
  const parts = Array.isArray(funcname) ? funcname : [];
  const last = parts[parts.length - 1] as { String?: { sval?: string } } | undefined;
  const name = (last?.String?.sval ?? '').toLowerCase();
  if (DENIED_FUNCTIONS.has(name) || DENIED_PREFIXES.some((prefix) => name.startsWith(prefix))) {
    throw refuse(`the function ${name}() is not allowed in a saved query`);
  }
}

/** `InsertStmt` -> `INSERT`, `CreateTableAsStmt` -> `CREATE TABLE AS`, for messages. */
function statementName(kind: string): string {
  const special: Record<string, string> = {
    DoStmt: 'DO',
    CallStmt: 'CALL',
    CopyStmt: 'COPY',
    VariableSetStmt: 'SET',
    TransactionStmt: 'a transaction statement',
    ExecuteStmt: 'EXECUTE',
  };
  if (special[kind]) return special[kind];
  return kind
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}
