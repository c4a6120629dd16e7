/**
 * The user's query as a subquery. It must be one reading statement that a `FROM ( … )` accepts:
 * SELECT or WITH (Postgres also VALUES and TABLE), possibly in parentheses. A trailing semicolon
 * is dropped. The scan knows quotes, comments and Postgres dollar quotes, so a ";" or a keyword
 * inside them does not count.
 */
import type { PushdownDialect } from './sql-text.js';

export type SubqueryText = { ok: true; text: string } | { ok: false; reason: string };

const FIRST_WORDS: Record<PushdownDialect, ReadonlySet<string>> = {
  postgres: new Set(['select', 'with', 'values', 'table']),
  mysql: new Set(['select', 'with']),
};

export function subqueryText(text: string, dialect: PushdownDialect): SubqueryText {
  const pg = dialect === 'postgres';
  const n = text.length;
  let i = 0;
  let firstWord: string | null = null;
  let bodyEnd = -1;
  let statementClosed = false;

  const lineCommentAt = (at: number): boolean => {
    if (text[at] === '#' && !pg) return true;
    if (text[at] !== '-' || text[at + 1] !== '-') return false;
    return pg || at + 2 >= n || /\s/.test(text[at + 2]!);
  };

  while (i < n) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (lineCommentAt(i)) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      i = blockCommentEnd(text, i, pg);
      continue;
    }
    if (statementClosed) {
      if (c === ';') {
        i += 1;
        continue;
      }
      return { ok: false, reason: 'the query holds more than one statement' };
    }
    if (c === ';') {
      statementClosed = true;
      i += 1;
      continue;
    }
    let end: number;
    if (c === "'") end = quotedEnd(text, i, "'", !pg || escapePrefixed(text, i));
    else if (c === '"') end = quotedEnd(text, i, '"', !pg);
    else if (c === '`' && !pg) end = quotedEnd(text, i, '`', false);
    else if (c === '$' && pg && (i === 0 || !/[A-Za-z0-9_$]/.test(text[i - 1]!))) end = dollarQuoteEnd(text, i);
    else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(text[j]!)) j += 1;
      firstWord ??= text.slice(i, j).toLowerCase();
      end = j;
    } else {
      end = i + 1;
    }
    if (end < 0) return { ok: false, reason: 'the query has an unterminated quote or comment' };
    bodyEnd = end;
    i = end;
  }
  if (bodyEnd < 0 || firstWord === null) return { ok: false, reason: 'the query is empty' };
  if (!FIRST_WORDS[dialect].has(firstWord)) {
    return { ok: false, reason: `the query starts with ${firstWord.toUpperCase()}; only a SELECT or WITH query can be wrapped in a grouped query` };
  }
  return { ok: true, text: text.slice(0, bodyEnd) };
}

/** Postgres E'…' strings take backslash escapes; standard strings do not. */
function escapePrefixed(text: string, quoteAt: number): boolean {
  const prev = text[quoteAt - 1];
  if (prev !== 'e' && prev !== 'E') return false;
  return quoteAt < 2 || !/[A-Za-z0-9_]/.test(text[quoteAt - 2]!);
}

function quotedEnd(text: string, start: number, quote: string, backslashes: boolean): number {
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
      return i + 1;
    }
    i += 1;
  }
  return -1;
}

function dollarQuoteEnd(text: string, start: number): number {
  const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(start));
  // `$1` (a compiled parameter) or a lone `$` is not a quote.
  if (!tag) return start + 1;
  const close = text.indexOf(tag[0], start + tag[0].length);
  return close === -1 ? -1 : close + tag[0].length;
}

function blockCommentEnd(text: string, start: number, nested: boolean): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text[i] === '/' && text[i + 1] === '*') {
      if (depth === 0 || nested) depth += 1;
      i += 2;
      continue;
    }
    if (text[i] === '*' && text[i + 1] === '/') {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
      continue;
    }
    i += 1;
  }
  return text.length;
}
