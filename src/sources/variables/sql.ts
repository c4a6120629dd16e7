import { InvalidQueryError, InvalidVariableError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables, ScalarValue, VariableType } from '../types.js';
import { lexSql, quotedBody, type SqlDialect, type SqlToken } from '../../sql-lexer/index.js';
import { isListType, isListValue } from './convert.js';
import { findPlaceholders, interpolateOrNull, LIST_IN_TEXT, lookupVariable, placeholderAt } from './placeholders.js';

export type { SqlDialect };

export interface CompiledSql {
  /** The SQL with `$n` (postgres) or `?` (mysql) where placeholders were. */
  text: string;
  /** Bound in order; never spliced into `text`. */
  values: unknown[];
}

/** `date '2025-01-01'` style typed literals: a parameter cannot follow the type name, so these become CAST(… AS type). */
const TYPED_LITERAL_WORD = /(?:^|[^A-Za-z0-9_$.])(date|time|timestamp|timestamptz|interval)$/i;

/**
 * The type name ending `out` (before trailing spaces), and where it starts. Only the last few
 * characters are examined, so the check costs the same however long the query already is.
 */
function typedLiteralBefore(out: Output): { typeName: string; start: number } | undefined {
  const end = out.length - out.trailingSpace();
  // Longer than the longest type name plus one boundary character, so `^` only matches at the real start.
  const from = Math.max(0, end - 16);
  const match = TYPED_LITERAL_WORD.exec(out.slice(from, end));
  if (!match) return undefined;
  const typeName = match[1]!;
  return { typeName: typeName.toLowerCase(), start: end - typeName.length };
}

const SPACE = /\s/;

/**
 * The compiled text, kept as the pieces it is built from and joined once. Binding a literal edits
 * the end of the text (drops a prefix or a type name); doing that to one long string copied all
 * of it at each literal, so a query of many `date '{{d}}'` took time in the square of its length.
 */
class Output {
  private readonly pieces: string[] = [];
  length = 0;

  add(text: string): void {
    this.pieces.push(text);
    this.length += text.length;
  }

  /** How many white-space characters the text ends with. */
  trailingSpace(): number {
    let count = 0;
    for (let i = this.pieces.length - 1; i >= 0; i--) {
      const piece = this.pieces[i]!;
      let j = piece.length;
      while (j > 0 && SPACE.test(piece[j - 1]!)) j--;
      count += piece.length - j;
      if (j > 0) break;
    }
    return count;
  }

  /** The characters from `from` to `to`; reads only the pieces after `from`. */
  slice(from: number, to: number): string {
    let text = '';
    let pieceEnd = this.length;
    for (let i = this.pieces.length - 1; i >= 0 && pieceEnd > from; i--) {
      const piece = this.pieces[i]!;
      const pieceStart = pieceEnd - piece.length;
      if (pieceStart < to) text = piece.slice(Math.max(from, pieceStart) - pieceStart, Math.min(to, pieceEnd) - pieceStart) + text;
      pieceEnd = pieceStart;
    }
    return text;
  }

  /** Cuts the text back to its first `length` characters. */
  truncate(length: number): void {
    while (this.length > length) {
      const piece = this.pieces.pop()!;
      this.length -= piece.length;
      if (this.length < length) this.add(piece.slice(0, length - this.length));
    }
  }

  toString(): string {
    return this.pieces.join('');
  }
}

/**
 * Compiles `{{name}}` placeholders into driver parameters. The SQL is read with the shared SQL
 * lexer (`src/sql-lexer`), which knows quotes, dollar quotes, identifiers and comments:
 * - a bare placeholder becomes one parameter holding the typed value (Postgres: typed as
 *   `postgresParam` says); a list is one array parameter in Postgres, and one `?` per value in
 *   MySQL (`?, ?, ?`; a single `?` holding NULL without a value);
 * - a quoted literal containing placeholders (`'%{{q}}%'`) becomes ONE parameter whose value is
 *   the literal's text with the values filled in, or NULL when one of them has no value; a list
 *   there is refused;
 * - placeholders inside comments are left alone (they are not variables);
 * - placeholders inside quoted identifiers are refused (identifiers cannot be parameters).
 */
export function compileSql(sql: string, dialect: SqlDialect, variables: ResolvedVariables | undefined): CompiledSql {
  const pg = dialect === 'postgres';
  const values: unknown[] = [];
  // Postgres: each variable is bound once and its parameter number reused at every use, so that
  // `(region = {{region}} OR {{region}} IS NULL)` is one parameter the server types once. A string
  // tested for NULL is the exception: that use gets a second parameter, typed text (see postgresParam).
  const bound = new Map<string, string>();
  const marker = (): string => (pg ? `$${values.length}` : '?');
  const out = new Output();
  const tokens = [...lexSql(sql, { dialect, placeholderEnd })];
  // Where each token's text starts in the output, for rewriting `IN (` once its list is known.
  const outAt: number[] = [];

  const bindLiteral = (text: string, prefixLength: number): void => {
    const value = interpolateOrNull(text, variables, (variable) => literalText(variable, dialect));
    if (prefixLength > 0) out.truncate(out.length - prefixLength);
    values.push(value);
    const typed = typedLiteralBefore(out);
    if (typed && !(typed.typeName === 'interval' && !pg)) {
      out.truncate(typed.start);
      out.add(`CAST(${marker()} AS ${castType(typed.typeName, dialect)})`);
    } else {
      out.add(marker());
    }
  };

  const bindPostgres = (variable: ResolvedVariable, at: number): void => {
    const nullTest = beforeNullTest(sql, tokens, at);
    if (isListType(variable.type)) {
      const list = listOperandAt(sql, tokens, at);
      if (list) {
        out.truncate(outAt[list.start]!);
        out.add(list.negated ? '<> ALL(' : '= ANY(');
      }
    }
    const { key, cast } = postgresParam(variable, nullTest);
    let param = bound.get(key);
    if (param === undefined) {
      values.push(postgresValue(variable));
      param = marker() + cast;
      bound.set(key, param);
    }
    out.add(param);
  };

  const bindMysql = (variable: ResolvedVariable, at: number): void => {
    const value = variable.value;
    if (!isListValue(value)) {
      values.push(value === null ? null : mysqlValue(variable.type, value));
      out.add('?');
    } else if (beforeNullTest(sql, tokens, at)) {
      // `{{list}} IS NULL` tests whether the list has a value: one parameter, never NULL here.
      values.push(JSON.stringify(value));
      out.add('?');
    } else {
      for (const item of value) values.push(mysqlValue(variable.type, item));
      out.add(value.map(() => '?').join(', '));
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    outAt.push(out.length);
    const text = sql.slice(token.start, token.end);
    switch (token.kind) {
      case 'string': {
        if (!token.terminated) throw new InvalidQueryError('Unterminated quoted string');
        const raw = quotedBody(sql, token);
        if (findPlaceholders(raw).length === 0) {
          out.add(text);
          break;
        }
        const prefix = literalPrefix(sql, token, dialect);
        if (prefix.kind === 'binary') {
          throw new InvalidQueryError('Variables cannot be used inside binary, hex or Unicode-escape string literals');
        }
        bindLiteral(unescapeLiteral(raw, token.delimiter, token.backslashes), prefix.length);
        break;
      }
      case 'identifier': {
        if (!token.terminated) {
          throw new InvalidQueryError(token.delimiter === '"' ? 'Unterminated quoted string' : 'Unterminated quoted identifier');
        }
        const inside = findPlaceholders(quotedBody(sql, token))[0];
        if (inside) throw new InvalidVariableError(inside.name, 'cannot be used inside a quoted identifier');
        out.add(text);
        break;
      }
      case 'dollar-string': {
        if (!token.terminated) throw new InvalidQueryError('Unterminated dollar-quoted string');
        const raw = quotedBody(sql, token);
        if (findPlaceholders(raw).length === 0) out.add(text);
        else bindLiteral(raw, 0);
        break;
      }
      case 'placeholder': {
        const variable = lookupVariable(variables, placeholderAt(sql, token.start)!.name);
        if (pg) bindPostgres(variable, i);
        else bindMysql(variable, i);
        break;
      }
      case 'symbol': {
        const after = sql[token.end];
        if (pg && text === '$' && after !== undefined && after >= '0' && after <= '9') {
          throw new InvalidQueryError('Positional parameters such as $1 are not supported; use {{name}} variables');
        }
        if (!pg && text === '?') {
          throw new InvalidQueryError('"?" outside a string is reserved for parameters; use {{name}} variables');
        }
        out.add(text);
        break;
      }
      default:
        // White space, words, and comments (placeholders inside them are not variables): as written.
        out.add(text);
    }
  }
  return { text: out.toString(), values };
}

function significant(token: SqlToken): boolean {
  return token.kind !== 'whitespace' && token.kind !== 'line-comment' && token.kind !== 'block-comment';
}

/** The index of the first significant token from `from` on, going by `step` (+1 or -1); -1 when none. */
function nextSignificant(tokens: readonly SqlToken[], from: number, step: 1 | -1): number {
  for (let i = from; i >= 0 && i < tokens.length; i += step) if (significant(tokens[i]!)) return i;
  return -1;
}

function wordAt(sql: string, tokens: readonly SqlToken[], index: number): string | undefined {
  const token = tokens[index];
  return token && token.kind === 'word' ? sql.slice(token.start, token.end).toLowerCase() : undefined;
}

function symbolAt(sql: string, tokens: readonly SqlToken[], index: number): string | undefined {
  const token = tokens[index];
  return token && token.kind === 'symbol' ? sql.slice(token.start, token.end) : undefined;
}

/** The placeholder at `at` is followed by `IS [NOT] NULL` (or Postgres' `ISNULL` / `NOTNULL`). */
function beforeNullTest(sql: string, tokens: readonly SqlToken[], at: number): boolean {
  let next = nextSignificant(tokens, at + 1, 1);
  const word = wordAt(sql, tokens, next);
  if (word === 'isnull' || word === 'notnull') return true;
  if (word !== 'is') return false;
  next = nextSignificant(tokens, next + 1, 1);
  if (wordAt(sql, tokens, next) === 'not') next = nextSignificant(tokens, next + 1, 1);
  return wordAt(sql, tokens, next) === 'null';
}

/**
 * `[NOT] IN ({{list}})`, the placeholder alone in the parentheses: where the `IN` (or `NOT`)
 * starts, so that Postgres can be given `= ANY(…)` (`<> ALL(…)`) for it, which means the same.
 */
function listOperandAt(sql: string, tokens: readonly SqlToken[], at: number): { start: number; negated: boolean } | undefined {
  const open = nextSignificant(tokens, at - 1, -1);
  if (symbolAt(sql, tokens, open) !== '(') return undefined;
  if (symbolAt(sql, tokens, nextSignificant(tokens, at + 1, 1)) !== ')') return undefined;
  const keyword = nextSignificant(tokens, open - 1, -1);
  if (wordAt(sql, tokens, keyword) !== 'in') return undefined;
  const before = nextSignificant(tokens, keyword - 1, -1);
  return wordAt(sql, tokens, before) === 'not' ? { start: before, negated: true } : { start: keyword, negated: false };
}

const placeholderEnd = (text: string, at: number): number | undefined => placeholderAt(text, at)?.end;

interface LiteralPrefix {
  kind: 'plain' | 'escape' | 'national' | 'binary';
  length: number;
}

/** Reads the prefix glued to a quote: E'…' (backslash escapes), N'…', X'…', B'…', U&'…', _utf8mb4'…'. */
function literalPrefix(sql: string, token: SqlToken, dialect: SqlDialect): LiteralPrefix {
  // Whether a Postgres string is E'…' is the lexer's call: it decides where the string ends.
  if (dialect === 'postgres' && token.backslashes) return { kind: 'escape', length: 1 };
  let start = token.start;
  while (start > 0 && /[A-Za-z0-9_&]/.test(sql[start - 1]!)) start--;
  const word = sql.slice(start, token.start);
  const lower = word.toLowerCase();
  if (lower === 'n') return { kind: 'national', length: 1 };
  if (lower === 'x' || lower === 'b' || lower === 'u&') return { kind: 'binary', length: word.length };
  if (dialect === 'mysql' && lower.startsWith('_')) return { kind: 'national', length: word.length };
  // A keyword before a literal without space (rare, e.g. `date'2025-01-01'`) is not a prefix.
  return { kind: 'plain', length: 0 };
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', Z: '\x1a' };

function unescapeLiteral(raw: string, quote: string, backslashes: boolean): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (backslashes && c === '\\' && i + 1 < raw.length) {
      const e = raw[++i]!;
      out += ESCAPES[e] ?? e;
    } else if (c === quote && raw[i + 1] === quote) {
      out += quote;
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

function castType(typeName: string, dialect: SqlDialect): string {
  if (dialect === 'postgres') return typeName;
  return typeName === 'timestamp' || typeName === 'timestamptz' ? 'DATETIME' : typeName.toUpperCase();
}

/** `2025-01-01T10:00:00.000Z` -> `2025-01-01 10:00:00.000`: the form MySQL compares with DATETIME. */
function mysqlDate(value: string): string {
  return value.length > 10 ? value.replace('T', ' ').replace(/Z$/, '') : value;
}

/**
 * The parameter a bare Postgres placeholder binds, and its type. Numbers are int8 (an index on an
 * integer column stays usable), numeric when one is not a whole number; booleans boolean; dates
 * `date` for days and `timestamptz` once one is an instant; lists the array of that type.
 * A string (or a list of strings) is left untyped, for Postgres to type from its use, so it
 * compares with text, varchar, uuid or enum columns alike (`= ANY(…)` too). Where the use gives no
 * type, before `IS [NOT] NULL`, it gets a parameter of its own typed `text` (`text[]`): which
 * type does not matter to a NULL test, and the other uses keep theirs.
 */
function postgresParam(variable: ResolvedVariable, nullTest: boolean): { key: string; cast: string } {
  const value = variable.value;
  const items: readonly unknown[] = isListValue(value) ? value : value === null ? [] : [value];
  const list = isListType(variable.type) ? '[]' : '';
  switch (variable.type) {
    case 'number':
    case 'number[]':
      return { key: variable.name, cast: `::${items.every((n) => typeof n === 'number' && Number.isSafeInteger(n)) ? 'int8' : 'numeric'}${list}` };
    case 'boolean':
    case 'boolean[]':
      return { key: variable.name, cast: `::boolean${list}` };
    case 'date':
    case 'date[]':
      return { key: variable.name, cast: `::${items.some(isInstant) ? 'timestamptz' : 'date'}${list}` };
    default:
      return nullTest ? { key: `${variable.name}\u0000null`, cast: `::text${list}` } : { key: variable.name, cast: '' };
  }
}

function isInstant(value: unknown): boolean {
  return typeof value === 'string' && value.length > 10;
}

/** A bound Postgres value: dates of a list holding an instant become instants too (a day at 00:00 UTC). */
function postgresValue(variable: ResolvedVariable): unknown {
  const value = variable.value;
  if (!isListValue(value)) return value;
  if (variable.type === 'date[]' && value.some(isInstant)) return value.map((d) => (isInstant(d) ? d : `${String(d)}T00:00:00.000Z`));
  return [...value];
}

function mysqlValue(type: VariableType, value: ScalarValue): ScalarValue {
  return (type === 'date' || type === 'date[]') && typeof value === 'string' ? mysqlDate(value) : value;
}

function literalText(variable: ResolvedVariable, dialect: SqlDialect): string {
  const value = variable.value;
  if (isListValue(value)) throw new InvalidVariableError(variable.name, LIST_IN_TEXT);
  if (value === null) return '';
  if (variable.type === 'date' && dialect === 'mysql') return mysqlDate(String(value));
  return String(value);
}
