import { InvalidQueryError } from '../errors.js';
import { keywordsOf, LEX_MODES, LexError, tokenize, type Token } from './mysql-lexer.js';
import { refuse, unverifiable } from './refusal.js';

/**
 * The MySQL/MariaDB statement check, in two layers that must both pass:
 * 1. the server's own lexical rules (`mysql-lexer.ts`), under every quoting mode the server may
 *    be in: one statement, a reading first word, no INTO/OUTFILE/DUMPFILE, no locking clause,
 *    no denied function, no executable comment;
 * 2. node-sql-parser (MySQL grammar, then MariaDB's): the statement must parse, be a SELECT
 *    (WITH, UNION, parenthesised), SHOW, DESCRIBE or EXPLAIN of a SELECT, and its tree holds no
 *    INTO, no locking read and no denied function.
 * The lexer layer is what the server sees; the parser layer is what the statement means. A
 * statement the parser cannot read is refused: it could not be verified.
 */

/** Functions that read files, wait, take locks, run programs or write sequences. */
const DENIED_FUNCTIONS = new Set([
  'load_file',
  'sleep',
  'benchmark',
  'get_lock',
  'release_lock',
  'release_all_locks',
  'is_free_lock',
  'is_used_lock',
  'master_pos_wait',
  'source_pos_wait',
  'master_gtid_wait',
  'wait_for_executed_gtid_set',
  'wait_until_sql_thread_after_gtids',
  'sys_exec',
  'sys_eval',
  'sys_get',
  'sys_set',
  'nextval',
  'setval',
]);

const READING_FIRST_WORDS = new Set(['select', 'with', 'show', 'describe', 'desc', 'explain', 'values', 'table']);
const WRITING_WORDS = new Set(['insert', 'update', 'delete', 'replace', 'load', 'call', 'do', 'handler']);
const PARSER_ROOTS = new Set(['select', 'show', 'desc']);

interface Grammar {
  name: string;
  parser: { astify(sql: string, options: { database: string }): unknown };
}

let grammars: Promise<Grammar[]> | undefined;

/** The two grammars are large: loaded on the first MySQL check, not at boot. */
function loadGrammars(): Promise<Grammar[]> {
  grammars ??= Promise.all([import('node-sql-parser/build/mysql.js'), import('node-sql-parser/build/mariadb.js')]).then(
    ([mysql, mariadb]) => [
      { name: 'MySQL', parser: new mysql.default.Parser() },
      { name: 'MariaDB', parser: new mariadb.default.Parser() },
    ],
    (error: unknown) => {
      grammars = undefined;
      throw error;
    },
  );
  return grammars;
}

export async function assertReadOnlyMysql(sql: string): Promise<void> {
  let unreadable: LexError | undefined;
  let lexed = 0;
  for (const mode of LEX_MODES) {
    let tokens: Token[];
    try {
      tokens = tokenize(sql, mode);
    } catch (error) {
      if (!(error instanceof LexError)) throw error;
      if (!error.unreadable) throw refuse(error.message);
      // The server in this quoting mode could not read the text either: it cannot run that way.
      unreadable = error;
      continue;
    }
    lexed++;
    checkTokens(tokens);
  }
  if (lexed === 0) throw refuse(unreadable?.message ?? 'the query cannot be read');
  checkTree(parse(sql, await loadGrammars()));
}

function checkTokens(all: Token[]): void {
  const tokens = [...all];
  while (isSymbol(tokens[tokens.length - 1], ';')) tokens.pop();
  if (tokens.length === 0) throw new InvalidQueryError('The SQL query is empty');
  if (tokens.some((t) => isSymbol(t, ';'))) throw refuse('the query holds more than one statement');
  const first = tokens[0]!;
  if (!isSymbol(first, '(') && !(first.kind === 'word' && READING_FIRST_WORDS.has(first.lower))) {
    const word = first.kind === 'word' || first.kind === 'quoted' ? first.text.toUpperCase() : 'a statement';
    throw refuse(`${word} is not a reading statement`);
  }
  const explains = first.kind === 'word' && (first.lower === 'explain' || first.lower === 'describe' || first.lower === 'desc');
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const nextWords = next?.kind === 'word' ? keywordsOf(next.text) : [];
    const names = token.kind === 'word' ? keywordsOf(token.text) : token.kind === 'quoted' ? [token.lower] : [];
    for (const word of token.kind === 'word' ? names : []) {
      if (word === 'into' || word === 'outfile' || word === 'dumpfile') throw refuse('SELECT … INTO (a file or variables) is not a read');
      if (word === 'for' && (nextWords.includes('update') || nextWords.includes('share'))) {
        throw refuse('locking clauses (FOR UPDATE/SHARE) take row locks');
      }
      if (word === 'lock' && nextWords.includes('in')) throw refuse('locking clauses (LOCK IN SHARE MODE) take row locks');
      if (word === 'next' && nextWords.includes('value')) throw refuse('NEXT VALUE FOR writes a sequence');
      if (word === 'procedure') throw refuse('PROCEDURE clauses are not allowed');
      if (explains && WRITING_WORDS.has(word) && !isSymbol(next, '(')) throw refuse(`EXPLAIN of ${word.toUpperCase()} is not a reading statement`);
    }
    if (isSymbol(next, '(')) {
      const denied = names.find((name) => DENIED_FUNCTIONS.has(name));
      if (denied) throw refuse(`the function ${denied}() is not allowed in a saved query`);
    }
  }
}

function isSymbol(token: Token | undefined, text: string): boolean {
  return token?.kind === 'symbol' && token.text === text;
}

type Node = Record<string, unknown>;

function parse(sql: string, grammars: Grammar[]): Node {
  let complaint = '';
  for (const grammar of grammars) {
    try {
      const ast = grammar.parser.astify(sql, { database: grammar.name }) as unknown;
      const statements = (Array.isArray(ast) ? ast : [ast]).filter((s) => s !== null && s !== undefined) as Node[];
      if (statements.length === 0) throw new InvalidQueryError('The SQL query is empty');
      if (statements.length > 1) throw refuse('the query holds more than one statement');
      return statements[0]!;
    } catch (error) {
      if (error instanceof InvalidQueryError) throw error;
      complaint ||= describeParseError(error);
    }
  }
  throw unverifiable('MySQL', complaint);
}

/** The parser lists every token it expected; what it found and where is enough. */
function describeParseError(error: unknown): string {
  const { message = String(error), location } = error as { message?: string; location?: { start?: { line?: number; column?: number } } };
  const found = / but (.+) found\.?$/.exec(message);
  const where = location?.start ? ` at line ${location.start.line}, column ${location.start.column}` : '';
  return found ? `unexpected ${found[1]}${where}` : message.slice(0, 200);
}

function checkTree(root: Node): void {
  const type = String(root['type'] ?? '');
  if (type === 'explain') {
    const inner = (root['expr'] ?? {}) as Node;
    if (inner['type'] !== 'select') throw refuse(`EXPLAIN of ${String(inner['type'] ?? 'this statement').toUpperCase()} is not a reading statement`);
  } else if (!PARSER_ROOTS.has(type)) {
    throw refuse(`${type.toUpperCase() || 'this statement'} is not a reading statement`);
  }
  walk(root);
}

function walk(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Node;
  const into = node['into'] as Node | null | undefined;
  if (into && typeof into === 'object' && (into['keyword'] || into['type'] || into['expr'])) {
    throw refuse('SELECT … INTO (a file or variables) is not a read');
  }
  if (node['locking_read']) throw refuse('locking clauses (FOR UPDATE/SHARE) take row locks');
  if (node['type'] === 'function' || node['type'] === 'aggr_func') {
    const name = functionName(node['name']);
    if (DENIED_FUNCTIONS.has(name)) throw refuse(`the function ${name}() is not allowed in a saved query`);
  }
  for (const child of Object.values(node)) walk(child);
}

/** `{name: [{value: 'db'}, {value: 'sleep'}]}` or a plain string -> `sleep`. */
function functionName(name: unknown): string {
  if (typeof name === 'string') return name.toLowerCase();
  const parts = (name as { name?: Array<{ value?: unknown }> } | undefined)?.name;
  const last = Array.isArray(parts) ? parts[parts.length - 1]?.value : undefined;
  return typeof last === 'string' ? last.toLowerCase() : '';
}
