import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lexSql, quotedBody, type LexOptions, type LexMode } from './index.js';

const PG: LexOptions = { dialect: 'postgres' };
const MY: LexOptions = { dialect: 'mysql' };
const mysqlIn = (mode: LexMode): LexOptions => ({ dialect: 'mysql', mode });
const NO_BACKSLASHES = mysqlIn({ backslashEscapes: false, ansiQuotes: false });
const ANSI_QUOTES = mysqlIn({ backslashEscapes: true, ansiQuotes: true });

/** `kind text`, with `…` after a token the text ends inside and `\` after a string read with backslash escapes. */
function lex(text: string, options: LexOptions): string[] {
  return [...lexSql(text, options)]
    .filter((t) => t.kind !== 'whitespace')
    .map((t) => `${t.kind} ${text.slice(t.start, t.end)}${t.terminated ? '' : '…'}${t.backslashes ? '\\' : ''}`);
}

describe('lexSql', () => {
  it('reads each kind of Postgres token', () => {
    expect(lex(`select 'a''b', "x""y", $$ 'q' $$, $t$ $$ $t$ from t -- {{c}}\n/* b */;`, PG)).toEqual([
      'word select',
      "string 'a''b'",
      'symbol ,',
      'identifier "x""y"',
      'symbol ,',
      "dollar-string $$ 'q' $$",
      'symbol ,',
      'dollar-string $t$ $$ $t$',
      'word from',
      'word t',
      'line-comment -- {{c}}',
      'block-comment /* b */',
      'symbol ;',
    ]);
  });

  it('reads each kind of MySQL token', () => {
    expect(lex("select 'a', \"b\", `c``d`, x$1 # e\n-- f\n/* g */ ?", MY)).toEqual([
      'word select',
      "string 'a'\\",
      'symbol ,',
      'string "b"\\',
      'symbol ,',
      'identifier `c``d`',
      'symbol ,',
      'word x$1',
      'line-comment # e',
      'line-comment -- f',
      'block-comment /* g */',
      'symbol ?',
    ]);
  });

  it('covers every character once, in order', () => {
    const piece = fc.constantFrom("'", '"', '`', '$', '$$', '$a$', '-', '--', '#', '/*', '*/', '\\', 'E', ' ', '\n', '{{a}}', ';', 'select', '1', '\u00a0', 'é');
    const options = [PG, MY, NO_BACKSLASHES, ANSI_QUOTES, { dialect: 'postgres', placeholderEnd: endOfBraces } as const];
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.constantFrom(...options), (pieces, option) => {
        const text = pieces.join('');
        let at = 0;
        for (const token of lexSql(text, option)) {
          expect(token.start).toBe(at);
          expect(token.end).toBeGreaterThan(token.start);
          at = token.end;
        }
        expect(at).toBe(text.length);
      }),
    );
  });

  it('runs an unterminated quote, comment or dollar string to the end of the text', () => {
    expect(lex("select 'abc", PG)).toEqual(['word select', "string 'abc…"]);
    expect(lex('select "abc', PG)).toEqual(['word select', 'identifier "abc…']);
    expect(lex('select `abc', MY)).toEqual(['word select', 'identifier `abc…']);
    expect(lex("select 'a\\'", MY)).toEqual(['word select', "string 'a\\'…\\"]);
    expect(lex("select 'a\\", MY)).toEqual(['word select', "string 'a\\…\\"]);
    expect(lex('select 1 /* abc', PG)).toEqual(['word select', 'word 1', 'block-comment /* abc…']);
    expect(lex('select 1 /* abc', MY)).toEqual(['word select', 'word 1', 'block-comment /* abc…']);
    expect(lex('select $t$ abc $$', PG)).toEqual(['word select', 'dollar-string $t$ abc $$…']);
  });

  it('nests block comments in Postgres only', () => {
    expect(lex('/* a /* b */ c */ d', PG)).toEqual(['block-comment /* a /* b */ c */', 'word d']);
    expect(lex('/* a /* b */ c */ d', MY)).toEqual(['block-comment /* a /* b */', 'word c', 'symbol *', 'symbol /', 'word d']);
    // MySQL ends a comment at the first `*/`, even one that shares its `*` with a `/*`.
    expect(lex('/*/*/ x', MY)).toEqual(['block-comment /*/*/', 'word x']);
    expect(lex('/*/*/ x', PG)).toEqual(['block-comment /*/*/ x…']);
    expect(lex('/**/x', PG)).toEqual(['block-comment /**/', 'word x']);
  });

  it('reads Postgres dollar tags', () => {
    // Only the opening tag closes the string; another tag inside is text.
    expect(lex('$a$ $b$ x $a$ $b$', PG)).toEqual(['dollar-string $a$ $b$ x $a$', 'dollar-string $b$…']);
    expect(lex('$$x$$$a$y$a$', PG)).toEqual(['dollar-string $$x$$', 'dollar-string $a$y$a$']);
    expect(lex('$_é1$x$_é1$', PG)).toEqual(['dollar-string $_é1$x$_é1$']);
    // A tag does not start with a digit: `$1` is a positional parameter, `$` then a number.
    expect(lex('$1a$ x', PG)).toEqual(['symbol $', 'word 1a$', 'word x']);
    // A `$` inside a name is part of it.
    expect(lex('a$$b, é$$', PG)).toEqual(['word a$$b', 'symbol ,', 'word é$$']);
    // MySQL has no dollar quotes: `$` is a name character.
    expect(lex('$$ x $$', MY)).toEqual(['word $$', 'word x', 'word $$']);
  });

  it('takes `--` as a comment in MySQL only before a space or control character', () => {
    expect(lex('select 1 --1', MY)).toEqual(['word select', 'word 1', 'symbol -', 'symbol -', 'word 1']);
    expect(lex('select 1 --\t1', MY)).toEqual(['word select', 'word 1', 'line-comment --\t1']);
    expect(lex('select 1 --\u00011', MY)).toEqual(['word select', 'word 1', 'line-comment --\u00011']);
    expect(lex('select 1 --', MY)).toEqual(['word select', 'word 1', 'line-comment --']);
    expect(lex('select 1 --1', PG)).toEqual(['word select', 'word 1', 'line-comment --1']);
    expect(lex('a -- b\nc', PG)).toEqual(['word a', 'line-comment -- b', 'word c']);
  });

  it('takes `#` as a comment in MySQL only', () => {
    expect(lex('select 1 # x\n2', MY)).toEqual(['word select', 'word 1', 'line-comment # x', 'word 2']);
    expect(lex('select 1 # x\n2', PG)).toEqual(['word select', 'word 1', 'symbol #', 'word x', 'word 2']);
  });

  it('reads backslash escapes as each mode and dialect has them', () => {
    // MySQL: on by default, off under NO_BACKSLASH_ESCAPES.
    expect(lex("'a\\'b' x", MY)).toEqual(["string 'a\\'b'\\", 'word x']);
    expect(lex("'a\\'b' x", NO_BACKSLASHES)).toEqual(["string 'a\\'", 'word b', "string ' x…"]);
    expect(lex('"a\\"b" x', MY)).toEqual(['string "a\\"b"\\', 'word x']);
    // Under ANSI_QUOTES "…" is an identifier, where a backslash is just a character.
    expect(lex('"a\\"b" x', ANSI_QUOTES)).toEqual(['identifier "a\\"', 'word b', 'identifier " x…']);
    // Postgres: standard strings take none; E'…' strings do.
    expect(lex("'a\\' x", PG)).toEqual(["string 'a\\'", 'word x']);
    expect(lex("E'a\\'b' x", PG)).toEqual(['word E', "string 'a\\'b'\\", 'word x']);
    expect(lex("e'a\\'b' x", PG)).toEqual(['word e', "string 'a\\'b'\\", 'word x']);
    expect(lex("&e'a\\'b'", PG)).toEqual(['symbol &', 'word e', "string 'a\\'b'\\"]);
    // The `E` must be a word of its own, right before the quote.
    expect(lex("ne'a\\' x", PG)).toEqual(['word ne', "string 'a\\'", 'word x']);
    expect(lex("E 'a\\' x", PG)).toEqual(['word E', "string 'a\\'", 'word x']);
  });

  it('reads a MySQL backslash outside a string together with the next character', () => {
    expect(lex('select \\Ninto', MY)).toEqual(['word select', 'symbol \\N', 'word into']);
    expect(lex("\\'a'", MY)).toEqual(['symbol \\\'', 'word a', "string '…\\"]);
    expect(lex('\\', MY)).toEqual(['symbol \\']);
    expect(lex("\\'a'", PG)).toEqual(['symbol \\', "string 'a'"]);
  });

  it('reads white space as each server does', () => {
    // Postgres takes every character above ASCII into names; JavaScript's other spaces are white space to the MySQL reading.
    expect(lex('a \u00a0b', PG)).toEqual(['word a', 'word \u00a0b']);
    expect(lex('a \u00a0b', MY)).toEqual(['word a', 'word b']);
    expect([...lexSql(' \t\n', PG)].map((t) => t.kind)).toEqual(['whitespace']);
  });

  it('reads placeholders only when asked to', () => {
    const withPlaceholders: LexOptions = { dialect: 'mysql', placeholderEnd: endOfBraces };
    expect(lex("a = {{x}} and b = '{{y}}' -- {{z}}", withPlaceholders)).toEqual([
      'word a',
      'symbol =',
      'placeholder {{x}}',
      'word and',
      'word b',
      'symbol =',
      "string '{{y}}'\\",
      'line-comment -- {{z}}',
    ]);
    expect(lex('{{x}}', MY)).toEqual(['symbol {', 'symbol {', 'word x', 'symbol }', 'symbol }']);
    // A brace pair that is no placeholder reads as symbols.
    expect(lex('{{}', withPlaceholders)).toEqual(['symbol {', 'symbol {', 'symbol }']);
  });

  it('gives the body between the delimiters', () => {
    const text = "'it''s' $t$x$t$ `a`";
    const quoted = new Set(['string', 'identifier', 'dollar-string']);
    const bodies = [...lexSql(text, PG)].filter((t) => quoted.has(t.kind)).map((t) => quotedBody(text, t));
    expect(bodies).toEqual(["it''s", 'x']);
    const mysql = [...lexSql(text, MY)].filter((t) => t.kind === 'identifier').map((t) => quotedBody(text, t));
    expect(mysql).toEqual(['a']);
  });
});

/** Placeholders for these tests: `{{`, something without braces, `}}` (the variable compiler passes its own). */
function endOfBraces(text: string, at: number): number | undefined {
  const close = text.indexOf('}}', at + 2);
  if (close === -1 || close === at + 2 || /[{}]/.test(text.slice(at + 2, close))) return undefined;
  return close + 2;
}
