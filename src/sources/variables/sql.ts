import { InvalidQueryError, InvalidVariableError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables } from '../types.js';
import { quotedEnd } from '../sql-quotes.js';
import { findPlaceholders, interpolate, lookupVariable, placeholderAt } from './placeholders.js';

export type SqlDialect = 'postgres' | 'mysql';

export interface CompiledSql {
  /** The SQL with `$n` (postgres) or `?` (mysql) where placeholders were. */
  text: string;
  /** Bound in order; never spliced into `text`. */
  values: unknown[];
}

const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG_AT = /\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
/** `date '2025-01-01'` style typed literals: a parameter cannot follow the type name, so these become CAST(… AS type). */
const TYPED_LITERAL_WORD = /(?:^|[^A-Za-z0-9_$.])(date|time|timestamp|timestamptz|interval)$/i;

/**
 * The type name ending `out` (before trailing spaces), and where it starts. Only the last few
 * characters are examined, so the check costs the same however long the query already is.
 */
function typedLiteralBefore(out: string): { typeName: string; start: number } | undefined {
  let end = out.length;
  while (end > 0 && /\s/.test(out[end - 1]!)) end--;
  // Longer than the longest type name plus one boundary character, so `^` only matches at the real start.
  const from = Math.max(0, end - 16);
  const match = TYPED_LITERAL_WORD.exec(out.slice(from, end));
  if (!match) return undefined;
  const typeName = match[1]!;
  return { typeName: typeName.toLowerCase(), start: end - typeName.length };
}

/**
 * Compiles `{{name}}` placeholders into driver parameters. The SQL is scanned with a small
 * tokenizer that knows quotes, dollar quotes, identifiers and comments:
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
  let out = '';
  let i = 0;
  const n = sql.length;

  const bindLiteral = (text: string, prefixLength: number): void => {
    const value = interpolate(text, variables, (variable) => literalText(variable, dialect));
    if (prefixLength > 0) out = out.slice(0, -prefixLength);
    values.push(value);
    const typed = typedLiteralBefore(out);
    if (typed && !(typed.typeName === 'interval' && !pg)) {
      out = out.slice(0, typed.start);
      out += `CAST(${marker()} AS ${castType(typed.typeName, dialect)})`;
    } else {
      out += marker();
    }
  };

  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];

    // Comments: copied verbatim, placeholders inside them are not variables.
    if (c === '-' && next === '-' && (pg || i + 2 >= n || /\s/.test(sql[i + 2]!))) {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '#' && !pg) {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && next === '*') {
      const stop = blockCommentEnd(sql, i, pg);
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }

    // String literals.
    if (c === "'" || (c === '"' && !pg)) {
      const prefix = literalPrefix(sql, i, dialect);
      const backslashes = !pg || prefix.kind === 'escape';
      const end = quotedEnd(sql, i, c, backslashes);
      if (end === -1) throw new InvalidQueryError('Unterminated quoted string');
      const raw = sql.slice(i + 1, end - 1);
      if (findPlaceholders(raw).length === 0) {
        out += sql.slice(i, end);
      } else {
        if (prefix.kind === 'binary') {
          throw new InvalidQueryError('Variables cannot be used inside binary, hex or Unicode-escape string literals');
        }
        bindLiteral(unescapeLiteral(raw, c, backslashes), prefix.length);
      }
      i = end;
      continue;
    }

    // Quoted identifiers.
    if ((c === '"' && pg) || (c === '`' && !pg)) {
      const end = quotedEnd(sql, i, c, false);
      if (end === -1) throw new InvalidQueryError(c === '"' ? 'Unterminated quoted string' : 'Unterminated quoted identifier');
      const raw = sql.slice(i + 1, end - 1);
      const inside = findPlaceholders(raw)[0];
      if (inside) throw new InvalidVariableError(inside.name, 'cannot be used inside a quoted identifier');
      out += sql.slice(i, end);
      i = end;
      continue;
    }

    // Postgres dollar quotes and positional parameters.
    if (c === '$' && pg && (i === 0 || !IDENT_CHAR.test(sql[i - 1]!))) {
      if (next !== undefined && next >= '0' && next <= '9') {
        throw new InvalidQueryError('Positional parameters such as $1 are not supported; use {{name}} variables');
      }
      DOLLAR_TAG_AT.lastIndex = i;
      const tag = DOLLAR_TAG_AT.exec(sql);
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        if (close === -1) throw new InvalidQueryError('Unterminated dollar-quoted string');
        const raw = sql.slice(i + tag[0].length, close);
        const end = close + tag[0].length;
        if (findPlaceholders(raw).length === 0) out += sql.slice(i, end);
        else bindLiteral(raw, 0);
        i = end;
        continue;
      }
    }

    if (c === '?' && !pg) {
      throw new InvalidQueryError('"?" outside a string is reserved for parameters; use {{name}} variables');
    }

    if (c === '{' && next === '{') {
      const match = placeholderAt(sql, i);
      if (match) {
        const variable = lookupVariable(variables, match.name);
        if (pg) {
          let param = bound.get(variable.name);
          if (param === undefined) {
            values.push(bareValue(variable, dialect));
            param = marker() + postgresCast(variable);
            bound.set(variable.name, param);
          }
          out += param;
        } else {
          values.push(bareValue(variable, dialect));
          out += marker();
        }
        i = match.end;
        continue;
      }
    }

    out += c;
    i++;
  }
  return { text: out, values };
}

interface LiteralPrefix {
  kind: 'plain' | 'escape' | 'national' | 'binary';
  length: number;
}

/** Reads the prefix glued to a quote: E'…' (backslash escapes), N'…', X'…', B'…', U&'…', _utf8mb4'…'. */
function literalPrefix(sql: string, quoteAt: number, dialect: SqlDialect): LiteralPrefix {
  let start = quoteAt;
  while (start > 0 && /[A-Za-z0-9_&]/.test(sql[start - 1]!)) start--;
  const word = sql.slice(start, quoteAt);
  if (word === '') return { kind: 'plain', length: 0 };
  const lower = word.toLowerCase();
  if (dialect === 'postgres' && lower === 'e') return { kind: 'escape', length: 1 };
  if (lower === 'n') return { kind: 'national', length: 1 };
  if (lower === 'x' || lower === 'b' || lower === 'u&') return { kind: 'binary', length: word.length };
  if (dialect === 'mysql' && lower.startsWith('_')) return { kind: 'national', length: word.length };
  // A keyword before a literal without space (rare, e.g. `date'2025-01-01'`) is not a prefix.
  return { kind: 'plain', length: 0 };
}

function blockCommentEnd(sql: string, start: number, nested: boolean): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      if (depth === 0 || nested) depth++;
      i += 2;
      continue;
    }
    if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
      continue;
    }
    i++;
  }
  return sql.length;
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
