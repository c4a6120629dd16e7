/**
 * SQL text cut into spans the way Postgres or MySQL/MariaDB reads it: where a comment, a quoted
 * string, a quoted identifier or a dollar-quoted body starts and where it ends. Three readers of
 * SQL must agree with the server about exactly that, and so read through this one scanner:
 * - the variable compiler (`sources/variables/sql.ts`): which `{{name}}` is a variable;
 * - the MySQL statement check (`sources/statement-safety/mysql-lexer.ts`): which words the server sees;
 * - the pushdown (`engine/pushdown/user-query.ts`): the first word, and where the statement ends.
 * Spans only: what a span means is each reader's business. It sits below `sources/` and `engine/`
 * and imports nothing, so the engine reads SQL the same way without depending on a source.
 *
 * Every character is looked at a bounded number of times, so a scan is linear in the text (saved
 * queries are capped at 256 KiB, and the variable compiler is tested with 100 KB of adversarial text).
 */

export type SqlDialect = 'postgres' | 'mysql';

/** How a MySQL/MariaDB server's sql_mode makes it read quotes. */
export interface LexMode {
  /** Off under NO_BACKSLASH_ESCAPES. */
  backslashEscapes: boolean;
  /** Under ANSI_QUOTES, "…" is an identifier. */
  ansiQuotes: boolean;
}

/** The server's default sql_mode: backslash escapes on, "…" a string. */
const DEFAULT_MYSQL_MODE: LexMode = Object.freeze({ backslashEscapes: true, ansiQuotes: false });

export interface LexOptions {
  dialect: SqlDialect;
  /** MySQL only; the default sql_mode when left out. */
  mode?: LexMode;
  /**
   * Where a `{{…}}` placeholder that starts at `at` ends, or undefined when none starts there.
   * Only the variable compiler asks for placeholders; the statement check reads compiled text and
   * leaves this out, so that nothing can hide from it between braces.
   */
  placeholderEnd?: (text: string, at: number) => number | undefined;
}

export type SqlTokenKind =
  /** A run of white space. */
  | 'whitespace'
  /** `-- …` (MySQL: only when a space or control character follows), MySQL `# …`; up to the newline, not including it. */
  | 'line-comment'
  /** `/* … *\/`, nested in Postgres; MySQL's `/*! … *\/` is one too (its reader decides what to make of it). */
  | 'block-comment'
  /** `'…'`, and MySQL `"…"` unless ANSI_QUOTES. */
  | 'string'
  /** Postgres `"…"`, MySQL `` `…` `` (and `"…"` under ANSI_QUOTES). */
  | 'identifier'
  /** Postgres `$$…$$` or `$tag$…$tag$`. */
  | 'dollar-string'
  /** Keywords, names and numbers alike: a run of letters, digits, `_`, `$` and non-ASCII characters. */
  | 'word'
  /** `{{ name }}`, when asked for. */
  | 'placeholder'
  /** Anything else, one character; MySQL `\x` outside a string is two (the server reads `\N` as NULL). */
  | 'symbol';

export interface SqlToken {
  readonly kind: SqlTokenKind;
  readonly start: number;
  /** Just past the token; the text's length when it is not terminated. */
  readonly end: number;
  /** False for a quote, comment or dollar string that the text ends inside. */
  readonly terminated: boolean;
  /** Strings: a backslash escapes the next character (MySQL unless NO_BACKSLASH_ESCAPES; Postgres E'…'). */
  readonly backslashes: boolean;
  /** Strings and identifiers: the quote character; dollar strings: the whole `$tag$`; '' otherwise. */
  readonly delimiter: string;
}

/** The text between the delimiters of a terminated string, identifier or dollar string, still escaped. */
export function quotedBody(text: string, token: SqlToken): string {
  return text.slice(token.start + token.delimiter.length, token.end - token.delimiter.length);
}

/** The tokens of `text`, left to right; together they cover every character once. */
export function* lexSql(text: string, options: LexOptions): Generator<SqlToken, void, undefined> {
  let previous: SqlToken | undefined;
  for (let at = 0; at < text.length; at = previous.end) {
    previous = tokenAt(text, at, options, previous);
    yield previous;
  }
}

const SPACE = /\s/;
// Postgres: `$` followed by an optional tag (a name that does not start with a digit) and `$`.
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

function tokenAt(text: string, i: number, options: LexOptions, previous: SqlToken | undefined): SqlToken {
  const pg = options.dialect === 'postgres';
  const mode = options.mode ?? DEFAULT_MYSQL_MODE;
  const n = text.length;
  const c = text[i]!;
  const next = text[i + 1];

  if (isSpace(text.charCodeAt(i), pg)) {
    let j = i + 1;
    while (j < n && isSpace(text.charCodeAt(j), pg)) j++;
    return span('whitespace', i, j);
  }
  // MySQL takes `--` as a comment only before a space or control character (`1--1` is 1 - -1);
  // Postgres always does.
  if ((c === '-' && next === '-' && (pg || i + 2 >= n || text.charCodeAt(i + 2) <= 32)) || (c === '#' && !pg)) {
    const newline = text.indexOf('\n', i);
    return span('line-comment', i, newline === -1 ? n : newline);
  }
  if (c === '/' && next === '*') {
    const end = pg ? nestedCommentEnd(text, i) : text.indexOf('*/', i + 2);
    return end === -1 ? unterminated('block-comment', i, n, '') : span('block-comment', i, pg ? end : end + 2);
  }
  if (c === "'") {
    return quoted(text, i, 'string', pg ? escapeString(text, i, previous) : mode.backslashEscapes);
  }
  if (c === '"') {
    return pg || mode.ansiQuotes ? quoted(text, i, 'identifier', false) : quoted(text, i, 'string', mode.backslashEscapes);
  }
  if (c === '`' && !pg) return quoted(text, i, 'identifier', false);
  if (c === '$' && pg) {
    // A word never starts with `$` in Postgres, so this `$` follows no name character.
    DOLLAR_TAG.lastIndex = i;
    const tag = DOLLAR_TAG.exec(text)?.[0];
    // Without a tag it is `$1` (a positional parameter) or a stray `$`: one symbol.
    if (tag === undefined) return span('symbol', i, i + 1);
    const close = text.indexOf(tag, i + tag.length);
    return close === -1 ? unterminated('dollar-string', i, n, tag) : { ...span('dollar-string', i, close + tag.length), delimiter: tag };
  }
  if (c === '\\' && !pg) return span('symbol', i, Math.min(i + 2, n));
  if (c === '{' && next === '{' && options.placeholderEnd) {
    const end = options.placeholderEnd(text, i);
    if (end !== undefined) return span('placeholder', i, end);
  }
  if (isWordChar(text.charCodeAt(i))) {
    let j = i + 1;
    while (j < n && isWordChar(text.charCodeAt(j))) j++;
    return span('word', i, j);
  }
  return span('symbol', i, i + 1);
}

function span(kind: SqlTokenKind, start: number, end: number): SqlToken {
  return { kind, start, end, terminated: true, backslashes: false, delimiter: '' };
}

function unterminated(kind: SqlTokenKind, start: number, end: number, delimiter: string): SqlToken {
  return { kind, start, end, terminated: false, backslashes: false, delimiter };
}

/** A quoted string or identifier: a doubled quote stands for the quote; with `backslashes`, `\x` for x. */
function quoted(text: string, start: number, kind: 'string' | 'identifier', backslashes: boolean): SqlToken {
  const quote = text[start]!;
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (backslashes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return { kind, start, end: i + 1, terminated: true, backslashes, delimiter: quote };
    }
    i++;
  }
  return { kind, start, end: text.length, terminated: false, backslashes, delimiter: quote };
}

/**
 * Postgres E'…' strings take backslash escapes; others do not (standard_conforming_strings, on
 * since 9.1). The `E` is a word of its own right before the quote: `nE'…'` is the name `ne` and a
 * plain string.
 */
function escapeString(text: string, quoteAt: number, previous: SqlToken | undefined): boolean {
  if (previous?.kind !== 'word' || previous.end !== quoteAt || previous.end - previous.start !== 1) return false;
  const letter = text[previous.start];
  return letter === 'e' || letter === 'E';
}

/** Just past the `*\/` that closes the Postgres comment opening at `start`, counting nested `/*`; -1 when none does. */
function nestedCommentEnd(text: string, start: number): number {
  let depth = 1;
  let i = start + 2;
  while (i < text.length) {
    if (text[i] === '/' && text[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      i += 2;
      if (--depth === 0) return i;
    } else {
      i++;
    }
  }
  return -1;
}

/**
 * Postgres: space, tab, newline, vertical tab, form feed, carriage return; any other character
 * above ASCII belongs to a name. MySQL: any white space as JavaScript knows it, which a server on
 * a single-byte character set may read as space (failing closed: a keyword after it stays one).
 */
function isSpace(code: number, pg: boolean): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return !pg && code >= 0x80 && SPACE.test(String.fromCharCode(code));
}

/** Letters, digits, `_`, `$` and every non-ASCII character (both servers take those into names). */
function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 || code >= 0x80
  );
}
