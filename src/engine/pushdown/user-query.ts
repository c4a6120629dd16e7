/**
 * The user's query as a subquery. It must be one reading statement that a `FROM ( … )` accepts:
 * SELECT or WITH (Postgres also VALUES and TABLE), possibly in parentheses. A trailing semicolon
 * is dropped. The text is read with the shared SQL lexer (`src/sql-lexer`), so a ";" or a
 * keyword inside a quote, a comment or a Postgres dollar quote does not count.
 */
import { lexSql } from '../../sql-lexer/index.js';
import type { PushdownDialect } from './sql-text.js';

export type SubqueryText = { ok: true; text: string } | { ok: false; reason: string };

const FIRST_WORDS: Record<PushdownDialect, ReadonlySet<string>> = {
  postgres: new Set(['select', 'with', 'values', 'table']),
  mysql: new Set(['select', 'with']),
};

export function subqueryText(text: string, dialect: PushdownDialect): SubqueryText {
  let firstWord: string | null = null;
  let bodyEnd = -1;
  let statementClosed = false;

  for (const token of lexSql(text, { dialect })) {
    const kind = token.kind;
    // An unterminated block comment runs to the end of the text, past the statement's last
    // token: it is left out with the rest of the tail, as a finished one would be.
    if (kind === 'whitespace' || kind === 'line-comment' || kind === 'block-comment') continue;
    const semicolon = kind === 'symbol' && text[token.start] === ';';
    if (statementClosed) {
      if (semicolon) continue;
      return { ok: false, reason: 'the query holds more than one statement' };
    }
    if (semicolon) {
      statementClosed = true;
      continue;
    }
    if (!token.terminated) return { ok: false, reason: 'the query has an unterminated quote or comment' };
    if (kind === 'word') firstWord ??= text.slice(token.start, token.end).toLowerCase();
    bodyEnd = token.end;
  }
  if (bodyEnd < 0 || firstWord === null) return { ok: false, reason: 'the query is empty' };
  if (!FIRST_WORDS[dialect].has(firstWord)) {
    return { ok: false, reason: `the query starts with ${firstWord.toUpperCase()}; only a SELECT or WITH query can be wrapped in a grouped query` };
  }
  return { ok: true, text: text.slice(0, bodyEnd) };
}
