import { InvalidQueryError, InvalidVariableError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables } from '../types.js';
import { lexSql, quotedBody, type SqlDialect, type SqlToken } from '../../sql-lexer/index.js';
import { findPlaceholders, interpolate, lookupVariable, placeholderAt } from './placeholders.js';

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
 * - a bare placeholder becomes one parameter holding the typed value;
 * - a quoted literal containing placeholders (`'%{{q}}%'`) becomes ONE parameter whose value is
 *   the literal's text with the values filled in;
 * - placeholders inside comments are left alone (they are not variables);
 * - placeholders inside quoted identifiers are refused (identifiers cannot be parameters).
 */
export function compileSql(sql: string, dialect: SqlDialect, variables: ResolvedVariables | undefined): CompiledSql {
  const pg = dialect === 'postgres';
  const values: unknown[] = [];
  // Postgres: each variable is bound once and its parameter number reused at every use, so that
  // `(region = {{region}} OR {{region}} IS NULL)` is one parameter the server types once.
  const bound = new Map<string, string>();
  const marker = (): string => (pg ? `$${values.length}` : '?');
  const out = new Output();

  const bindLiteral = (text: string, prefixLength: number): void => {
    const value = interpolate(text, variables, (variable) => literalText(variable, dialect));
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

  for (const token of lexSql(sql, { dialect, placeholderEnd })) {
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
        if (pg) {
          let param = bound.get(variable.name);
          if (param === undefined) {
            values.push(bareValue(variable, dialect));
            param = marker() + postgresCast(variable);
            bound.set(variable.name, param);
          }
          out.add(param);
        } else {
          values.push(bareValue(variable, dialect));
          out.add(marker());
        }
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
 * The type a bare Postgres parameter is given from its binding, so that a use with no context
 * (`{{x}} IS NULL`) still has a type. Strings stay untyped: Postgres then types them from their
 * first use, so they compare with uuid, enum or varchar columns alike. Whole numbers are int8
 * (an index on an integer column stays usable), others numeric; dates are `date` for a day and
 * `timestamptz` for an instant.
 */
function postgresCast(variable: ResolvedVariable): string {
  switch (variable.type) {
    case 'number':
      return typeof variable.value === 'number' && !Number.isSafeInteger(variable.value) ? '::numeric' : '::int8';
    case 'boolean':
      return '::boolean';
    case 'date':
      return typeof variable.value === 'string' && variable.value.length > 10 ? '::timestamptz' : '::date';
    default:
      return '';
  }
}

function bareValue(variable: ResolvedVariable, dialect: SqlDialect): unknown {
  if (variable.value === null) return null;
  if (variable.type === 'date' && dialect === 'mysql') return mysqlDate(String(variable.value));
  return variable.value;
}

function literalText(variable: ResolvedVariable, dialect: SqlDialect): string {
  if (variable.value === null) return '';
  if (variable.type === 'date' && dialect === 'mysql') return mysqlDate(String(variable.value));
  return String(variable.value);
}
