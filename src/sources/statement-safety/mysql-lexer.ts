/**
 * MySQL/MariaDB tokens as the server reads them, for the statement check. A separate lexer
 * because a parser written for another purpose does not always agree with the server about
 * where a comment or a string ends (`--1` is not a comment to MySQL; `'a\'` does not end a
 * string unless NO_BACKSLASH_ESCAPES is set), and a disagreement would hide a clause.
 */

import { quotedEnd } from '../sql-quotes.js';

export type Token =
  | { kind: 'word'; text: string; lower: string }
  /** A backtick (or, with ANSI_QUOTES, double-quote) identifier, unquoted. */
  | { kind: 'quoted'; text: string; lower: string }
  | { kind: 'string' }
  | { kind: 'symbol'; text: string };

/** How the server's sql_mode makes it read quotes. */
export interface LexMode {
  /** Off under NO_BACKSLASH_ESCAPES. */
  backslashEscapes: boolean;
  /** Under ANSI_QUOTES, "…" is an identifier. */
  ansiQuotes: boolean;
}

/** Every way the server may read quotes: the check must hold under each. */
export const LEX_MODES: readonly LexMode[] = [
  { backslashEscapes: true, ansiQuotes: false },
  { backslashEscapes: true, ansiQuotes: true },
  { backslashEscapes: false, ansiQuotes: false },
  { backslashEscapes: false, ansiQuotes: true },
];

/**
 * `unreadable`: the server in this mode would reject the text too (an unterminated string or
 * comment), so it cannot run that way. Otherwise the text is refused whatever the mode.
 */
/**
 * The keywords a word may stand for. The server ends a number where a letter follows its
 * fraction or exponent (`1.1into`, `1e0into` read as a number, then INTO), so every tail that
 * starts with a letter right after a digit counts too. A harmless identifier such as `col1into`
 * is then refused as well: failing closed is the point.
 */
export function keywordsOf(word: string): string[] {
  const lower = word.toLowerCase();
  const out = [lower];
  for (let i = 1; i < lower.length; i++) {
    if (/[0-9]/.test(lower[i - 1]!) && /[a-z_]/.test(lower[i]!)) out.push(lower.slice(i));
  }
  return out;
}

export class LexError extends Error {
  constructor(
    message: string,
    readonly unreadable = false,
  ) {
    super(message);
  }
}

const WORD_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;

export function tokenize(sql: string, mode: LexMode): Token[] {
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // `#` and `-- ` (two dashes then a space or control character) run to the end of the line.
    if (c === '#' || (c === '-' && next === '-' && (i + 2 >= n || sql.charCodeAt(i + 2) <= 32))) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      // `/*! … */` and `/*M! … */` are executed by the server, not ignored.
      if (sql[i + 2] === '!' || (sql[i + 2] === 'M' && sql[i + 3] === '!')) {
        throw new LexError('executable comments (/*! … */) are not allowed');
      }
      const end = sql.indexOf('*/', i + 2);
      if (end === -1) throw new LexError('the query has an unterminated comment', true);
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      const identifier = c === '`' || (c === '"' && mode.ansiQuotes);
      const end = quotedEnd(sql, i, c, !identifier && mode.backslashEscapes);
      if (end === -1) throw new LexError(identifier ? 'the query has an unterminated quoted identifier' : 'the query has an unterminated string', true);
      if (identifier) {
        const text = sql.slice(i + 1, end - 1).split(c + c).join(c);
        tokens.push({ kind: 'quoted', text, lower: text.toLowerCase() });
      } else {
        tokens.push({ kind: 'string' });
      }
      i = end;
      continue;
    }
    // `\N` is a NULL literal: a word glued to it (`\Ninto`) is read as a separate keyword.
    if (c === '\\') {
      tokens.push({ kind: 'symbol', text: sql.slice(i, i + 2) });
      i += 2;
      continue;
    }
    if (WORD_CHAR.test(c)) {
      let j = i + 1;
      while (j < n && WORD_CHAR.test(sql[j]!)) j++;
      const text = sql.slice(i, j);
      tokens.push({ kind: 'word', text, lower: text.toLowerCase() });
      i = j;
      continue;
    }
    tokens.push({ kind: 'symbol', text: c });
    i++;
  }
  return tokens;
}

