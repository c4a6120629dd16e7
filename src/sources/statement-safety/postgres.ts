import { InvalidQueryError } from '../errors.js';
import { refuse, syntaxError } from './refusal.js';

/**
 * The Postgres statement check: the text is parsed by Postgres's own parser (libpg-query, the
 * server's grammar compiled to WebAssembly), so what is checked is exactly what the server would
 * run. One statement; the root must be a reading statement; the whole tree is walked for nested
 * statements, SELECT … INTO, locking clauses and functions that read files, write, wait or
 * administer the server.
 *
 * A function is denied wherever the server may resolve a name to a call, not only where the
 * parser writes `f(…)`: Postgres reads `x.f` and `(x).f` as `f(x)` when `f` is not a field of `x`
 * (functional notation, parse_func.c ParseFuncOrColumn, reached from transformColumnRef and
 * transformIndirection), so the trailing names of qualified column references and every name
 * selected by `(…).name` are checked too, as are TABLESAMPLE methods.
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
function loadPostgresParser(): Promise<ParseSync> {
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

/**
 * Built-in types that are never composite: a field selected from a value cast to one of them can
 * only be a function call in functional notation. Compared on the last name, unqualified or in
 * `pg_catalog` (where the grammar puts `int`, `varchar`, `timestamp`, …).
 */
const SCALAR_TYPES = new Set([
  'bool', 'boolean', 'bytea', 'char', 'bpchar', 'varchar', 'text', 'name', 'int2', 'int4', 'int8',
  'smallint', 'integer', 'int', 'bigint', 'float4', 'float8', 'real', 'numeric', 'decimal', 'money',
  'date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval', 'bit', 'varbit', 'uuid', 'json',
  'jsonb', 'jsonpath', 'xml', 'inet', 'cidr', 'macaddr', 'macaddr8', 'oid', 'regclass', 'regproc',
  'regprocedure', 'regoper', 'regoperator', 'regtype', 'regconfig', 'regdictionary', 'regnamespace',
  'regrole', 'regcollation', 'tsvector', 'tsquery', 'point', 'line', 'lseg', 'box', 'path', 'polygon',
  'circle', 'pg_lsn', 'xid', 'xid8', 'cid', 'tid', 'int4range', 'int8range', 'numrange', 'daterange',
  'tsrange', 'tstzrange', 'unknown', 'cstring',
]);

/** Expressions that may be a row, so that `(expr).name` may select a field rather than call `name(expr)`. */
const MAY_BE_ROW = new Set(['ColumnRef', 'FuncCall', 'RowExpr', 'SubLink', 'A_Indirection', 'CaseExpr', 'CoalesceExpr', 'MinMaxExpr', 'TypeCast']);

/** What an expression that is never a row is, for the message. */
const NOT_A_ROW: Record<string, string> = {
  A_Const: 'a constant',
  TypeCast: 'a value cast to a built-in type',
  A_Expr: 'an operator expression',
  ParamRef: 'a parameter',
  BoolExpr: 'a boolean expression',
  NullTest: 'a test',
  BooleanTest: 'a test',
  A_ArrayExpr: 'an array',
  SQLValueFunction: 'a built-in value',
  CollateClause: 'a collated value',
};

export async function assertReadOnlyPostgres(sql: string): Promise<void> {
  const parseSync = await loadPostgresParser();
  let tree: { stmts?: Array<{ stmt?: Node }> };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch (error) {
    throw syntaxError('PostgreSQL', (error as Error).message);
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
    if (field === 'FuncCall') checkCall(names((child as Node)['funcname']).at(-1) ?? '');
    if (field === 'ColumnRef') checkColumnRef(child as Node);
    if (field === 'A_Indirection') checkIndirection(child as Node);
    // The sampling method is a function the server looks up by name.
    if (field === 'RangeTableSample') checkCall(names((child as Node)['method']).at(-1) ?? '');
    walk(child, field);
  }
}

/** The names of a list of `String` nodes, in order; other nodes (`A_Star`, subscripts) are left out. */
function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const item of list as Array<{ String?: { sval?: string } }>) if (item?.String) out.push(item.String.sval ?? '');
  return out;
}

function isDenied(name: string): boolean {
  const lower = name.toLowerCase();
  return DENIED_FUNCTIONS.has(lower) || DENIED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

function checkCall(name: string): void {
  if (isDenied(name)) throw refuse(`the function ${name.toLowerCase()}() is not allowed in a saved query`);
}

/**
 * `a.b`, `s.a.b`, `d.s.a.b`: the server reads the last name as a column of the table `a` and,
 * when `a` has no such column, as the function `b(a)` (a scalar for a function in FROM). The
 * check cannot know the columns, so a denied name is refused there; the names before it name a
 * schema or table, but a server that read them as fields would call them too, so they are
 * checked as well. A lone name is a column or a whole table, never a call.
 */
function checkColumnRef(ref: Node): void {
  const fields = names(ref['fields']);
  if (fields.length < 2) return;
  for (const name of fields.slice(1)) {
    if (isDenied(name)) {
      throw refuse(
        `${fields.join('.')} calls the function ${name.toLowerCase()}() when no column is named ${name}, and that function is not allowed in a saved query; ` +
          'select such a column without its table name, or rename it in a subquery',
      );
    }
  }
}

/**
 * `(expr).name`: a field of `expr` when it is a row with that field, otherwise the call
 * `name(expr)`. Every selected name is checked, and a name selected directly from an expression
 * that is never a row (a constant, a cast to a built-in scalar type, an operator, a parameter, …)
 * is refused outright: that is a function call written as field selection.
 */
function checkIndirection(indirection: Node): void {
  const steps = Array.isArray(indirection['indirection']) ? (indirection['indirection'] as Node[]) : [];
  for (const name of names(steps)) {
    if (isDenied(name)) {
      throw refuse(`(…).${name} is the function ${name.toLowerCase()}() in functional notation, which is not allowed in a saved query`);
    }
  }
  const first = steps[0]?.['String'] as { sval?: string } | undefined;
  if (!first) return;
  const arg = (indirection['arg'] ?? {}) as Node;
  const kind = Object.keys(arg)[0] ?? 'unknown';
  if (MAY_BE_ROW.has(kind) && !(kind === 'TypeCast' && isScalarCast(arg['TypeCast'] as Node))) return;
  const name = first.sval ?? '';
  throw refuse(`(…).${name} on ${NOT_A_ROW[kind] ?? 'an expression that is not a row'} is the function ${name}() in functional notation; write ${name}(…) instead`);
}

/** A cast to an array or to a built-in scalar type: never a row. */
function isScalarCast(cast: Node): boolean {
  const type = (cast['typeName'] ?? {}) as Node;
  if (Array.isArray(type['arrayBounds']) && type['arrayBounds'].length > 0) return true;
  const parts = names(type['names']).map((part) => part.toLowerCase());
  const last = parts.at(-1) ?? '';
  return (parts.length === 1 || (parts.length === 2 && parts[0] === 'pg_catalog')) && SCALAR_TYPES.has(last);
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
