/**
 * SQL text assembled from fragments, so that a value can never become text: a fragment is SQL
 * this module generated itself, a bound parameter, or the user's already compiled query.
 * `render` numbers the parameters for the dialect: Postgres `$n` after the user's own `$1…$k`,
 * MySQL `?` in text order (the user's values land where the user's text sits).
 */

export type PushdownDialect = 'postgres' | 'mysql';

/** The user's query as the sources' SQL variable compiler returns it (`compileSql`). */
export interface CompiledQuery {
  text: string;
  values: readonly unknown[];
}

interface Param {
  readonly kind: 'param';
  readonly value: unknown;
}

interface Embedded {
  readonly kind: 'query';
  readonly query: CompiledQuery;
}

type Part = string | Param | Embedded;

export class Sql {
  private constructor(readonly parts: readonly Part[]) {}

  /** Generated SQL text; never call this with a value that came from a configuration or a row. */
  static trusted(text: string): Sql {
    return new Sql([text]);
  }

  static param(value: unknown): Sql {
    return new Sql([{ kind: 'param', value }]);
  }

  static query(query: CompiledQuery): Sql {
    return new Sql([{ kind: 'query', query }]);
  }

  static concat(items: readonly Sql[]): Sql {
    return new Sql(items.flatMap((s) => s.parts));
  }
}

/** Template tag: literal pieces are generated SQL, interpolations must already be `Sql`. */
export function sql(strings: TemplateStringsArray, ...values: readonly Sql[]): Sql {
  const items: Sql[] = [];
  strings.forEach((s, i) => {
    if (s !== '') items.push(Sql.trusted(s));
    const v = values[i];
    if (v !== undefined) items.push(v);
  });
  return Sql.concat(items);
}

export function join(items: readonly Sql[], separator: string): Sql {
  const out: Sql[] = [];
  items.forEach((item, i) => {
    if (i > 0) out.push(Sql.trusted(separator));
    out.push(item);
  });
  return Sql.concat(out);
}

/** An integer computed here (offsets, instants, bucket sizes, limits): written as digits. */
export function int(n: number): Sql {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`);
  return Sql.trusted(n < 0 ? `(${n})` : String(n));
}

const TRUE = Sql.trusted('TRUE');
export const FALSE = Sql.trusted('FALSE');

export function bool(value: boolean): Sql {
  return value ? TRUE : FALSE;
}

export interface RenderedSql {
  sql: string;
  params: unknown[];
}

export function render(statement: Sql, dialect: PushdownDialect): RenderedSql {
  const embedded = statement.parts.filter((p): p is Embedded => typeof p !== 'string' && p.kind === 'query');
  if (embedded.length > 1) throw new Error('a pushdown statement embeds the user query once');
  const params: unknown[] = [];
  let text = '';
  if (dialect === 'postgres') {
    // The user's text already says $1…$k; ours continue from k + 1.
    const user = embedded[0]?.query.values ?? [];
    params.push(...user);
    for (const part of statement.parts) {
      if (typeof part === 'string') text += part;
      else if (part.kind === 'query') text += part.query.text;
      else {
        params.push(part.value);
        text += `$${params.length}`;
      }
    }
    return { sql: text, params };
  }
  for (const part of statement.parts) {
    if (typeof part === 'string') text += part;
    else if (part.kind === 'query') {
      text += part.query.text;
      params.push(...part.query.values);
    } else {
      params.push(part.value);
      text += '?';
    }
  }
  return { sql: text, params };
}

/**
 * A quoted identifier, or null when the name cannot be quoted so that the database reads back
 * exactly that name: NUL anywhere, lone surrogates, over the length the server keeps (Postgres
 * truncates at 63 bytes, which could name another column), and for MySQL characters outside the
 * Basic Multilingual Plane or trailing spaces (not allowed in its identifiers).
 */
export function quoteIdentifier(name: string, dialect: PushdownDialect): string | null {
  if (name.length === 0 || name.includes('\u0000') || !isWellFormed(name)) return null;
  if (dialect === 'postgres') {
    if (Buffer.byteLength(name, 'utf8') > 63) return null;
    return `"${name.replace(/"/g, '""')}"`;
  }
  if ([...name].length > 64 || /[\u{10000}-\u{10FFFF}]/u.test(name) || /\s$/.test(name)) return null;
  return `\`${name.replace(/`/g, '``')}\``;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** False when the text holds a lone surrogate, which no UTF-8 database can store or compare. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
