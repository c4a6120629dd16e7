/**
 * MySQL/MariaDB tokens as the server reads them, for the statement check. Read with the shared
 * SQL lexer (`src/sql-lexer`) rather than the parser of the second layer, because a parser
 * written for another purpose does not always agree with the server about where a comment or a
 * string ends (`--1` is not a comment to MySQL; `'a\'` does not end a string unless
 * NO_BACKSLASH_ESCAPES is set), and a disagreement would hide a clause.
 */

import { lexSql, quotedBody, type LexMode } from '../../sql-lexer/index.js';

export type Token =
  | { kind: 'word'; text: string; lower: string }
  /** A backtick (or, with ANSI_QUOTES, double-quote) identifier, unquoted. */
  | { kind: 'quoted'; text: string; lower: string }
  | { kind: 'string' }
  | { kind: 'symbol'; text: string };

/** Every way the server may read quotes: the check must hold under each. */
export const LEX_MODES: readonly LexMode[] = [
  { backslashEscapes: true, ansiQuotes: false },
  { backslashEscapes: true, ansiQuotes: true },
  { backslashEscapes: false, ansiQuotes: false },
  { backslashEscapes: false, ansiQuotes: true },
];

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

/**
 * `unreadable`: the server in this mode would reject the text too (an unterminated string or
 * comment), so it cannot run that way. Otherwise the text is refused whatever the mode.
 */
export class LexError extends Error {
  constructor(
    message: string,
    readonly unreadable = false,
  ) {
    super(message);
  }
}

export function tokenize(sql: string, mode: LexMode): Token[] {
  const tokens: Token[] = [];
  for (const token of lexSql(sql, { dialect: 'mysql', mode })) {
    switch (token.kind) {
      case 'whitespace':
      case 'line-comment':
        break;
      case 'block-comment':
        // `/*! … */` and `/*M! … */` are executed by the server, not ignored.
        if (sql[token.start + 2] === '!' || (sql[token.start + 2] === 'M' && sql[token.start + 3] === '!')) {
          throw new LexError('executable comments (/*! … */) are not allowed');
        }
        if (!token.terminated) throw new LexError('the query has an unterminated comment', true);
        break;
      case 'string':
        if (!token.terminated) throw new LexError('the query has an unterminated string', true);
        tokens.push({ kind: 'string' });
        break;
      case 'identifier': {
        if (!token.terminated) throw new LexError('the query has an unterminated quoted identifier', true);
        const quote = token.delimiter;
        const text = quotedBody(sql, token).split(quote + quote).join(quote);
        tokens.push({ kind: 'quoted', text, lower: text.toLowerCase() });
        break;
      }
      case 'word': {
        const text = sql.slice(token.start, token.end);
        tokens.push({ kind: 'word', text, lower: text.toLowerCase() });
        break;
      }
      default:
        // Symbols, the only kind left (no dollar strings in MySQL, no placeholders asked for). `\N`
        // (a NULL literal) is one, so a word glued to it (`\Ninto`) is read as a separate keyword.
        tokens.push({ kind: 'symbol', text: sql.slice(token.start, token.end) });
    }
  }
  return tokens;
}
