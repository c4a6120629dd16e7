import { describe, expect, it } from 'vitest';
import { resolveVariables } from './resolve.js';
import { compileSql } from './sql.js';

const vars = resolveVariables({
  bindings: [
    { name: 'country', type: 'string', default_value: 'US' },
    { name: 'n', type: 'number', default_value: '5' },
    { name: 'paid', type: 'boolean', default_value: 'true' },
    { name: 'from', type: 'date', default_value: '2025-01-01T10:00:00Z' },
    { name: 'day', type: 'date', default_value: '2025-01-02' },
    { name: 'none', type: 'string' },
  ],
  runtime: { q: "it's" },
});

describe('compileSql', () => {
  it('binds bare placeholders as $n (postgres) and ? (mysql), typed', () => {
    const sql = 'select * from t where country = {{country}} and n > {{ n }} and paid = {{paid}} and at >= {{from}} and x is {{none}}';
    expect(compileSql(sql, 'postgres', vars)).toEqual({
      text: 'select * from t where country = $1 and n > $2::int8 and paid = $3::boolean and at >= $4::timestamptz and x is $5',
      values: ['US', 5, true, '2025-01-01T10:00:00.000Z', null],
    });
    expect(compileSql(sql, 'mysql', vars)).toEqual({
      text: 'select * from t where country = ? and n > ? and paid = ? and at >= ? and x is ?',
      values: ['US', 5, true, '2025-01-01 10:00:00.000', null],
    });
  });

  it('binds a variable once in postgres, reusing its parameter number, typed from its binding', () => {
    const sql = 'select * from t where (country = {{country}} or country > {{country}}) and n > {{n}} and d = {{day}} and {{n}} < 9';
    expect(compileSql(sql, 'postgres', vars)).toEqual({
      text: 'select * from t where (country = $1 or country > $1) and n > $2::int8 and d = $3::date and $2::int8 < 9',
      values: ['US', 5, '2025-01-02'],
    });
    // MySQL has no numbered parameters: one marker per use.
    expect(compileSql(sql, 'mysql', vars).values).toEqual(['US', 'US', 5, '2025-01-02', 5]);
    const fractional = resolveVariables({ bindings: [{ name: 'r', type: 'number' }], runtime: { r: 1.5 } });
    expect(compileSql('select {{r}}', 'postgres', fractional)).toEqual({ text: 'select $1::numeric', values: [1.5] });
  });

  it('turns a quoted literal with placeholders into one parameter built from it', () => {
    expect(compileSql("select * from t where name like '%{{q}}%' or c = '{{country}}'", 'postgres', vars)).toEqual({
      text: 'select * from t where name like $1 or c = $2',
      values: ["%it's%", 'US'],
    });
    expect(compileSql(`select "a" from t where x = "{{q}}-{{n}}"`, 'mysql', vars)).toEqual({
      text: 'select "a" from t where x = ?',
      values: ["it's-5"],
    });
  });

  it('unescapes the literal text it turns into a parameter', () => {
    expect(compileSql("select 'it''s {{country}}'", 'postgres', vars).values).toEqual(["it's US"]);
    expect(compileSql("select E'a\\n{{country}}'", 'postgres', vars)).toEqual({ text: 'select $1', values: ['a\nUS'] });
    expect(compileSql("select 'a\\'b {{country}}'", 'mysql', vars).values).toEqual(["a'b US"]);
    expect(compileSql("select 'C:\\\\dir {{country}}'", 'postgres', vars).values).toEqual(['C:\\\\dir US']);
  });

  it('rewrites typed literals (date, timestamp, interval) into casts', () => {
    expect(compileSql("select date '{{day}}', interval '{{n}} days', timestamp '{{from}}'", 'postgres', vars)).toEqual({
      text: 'select CAST($1 AS date), CAST($2 AS interval), CAST($3 AS timestamp)',
      values: ['2025-01-02', '5 days', '2025-01-01T10:00:00.000Z'],
    });
    expect(compileSql("select DATE '{{day}}' + INTERVAL '{{n}}' DAY", 'mysql', vars)).toEqual({
      text: 'select CAST(? AS DATE) + INTERVAL ? DAY',
      values: ['2025-01-02', '5'],
    });
  });

  it('binds dollar-quoted bodies in postgres', () => {
    expect(compileSql('select $$%{{q}}%$$, $tag${{country}}$tag$', 'postgres', vars)).toEqual({
      text: 'select $1, $2',
      values: ["%it's%", 'US'],
    });
  });

  it('leaves comments alone (placeholders there are not variables)', () => {
    const sql = "-- filter by {{unknown}}\nselect 1 /* {{nope}} /* nested {{x}} */ */ + {{n}}";
    expect(compileSql(sql, 'postgres', vars).values).toEqual([5]);
    expect(compileSql('select 1 -- {{a}}\n, {{n}} # {{b}}', 'mysql', vars)).toEqual({ text: 'select 1 -- {{a}}\n, ? # {{b}}', values: [5] });
  });

  it('refuses placeholders inside quoted identifiers', () => {
    expect(() => compileSql('select "{{country}}" from t', 'postgres', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
    expect(() => compileSql('select `{{country}}` from t', 'mysql', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
  });

  it('names an unknown placeholder in a 400', () => {
    expect(() => compileSql('select {{missing}}', 'postgres', vars)).toThrowError(
      expect.objectContaining({ statusCode: 400, code: 'VARIABLE_UNKNOWN', message: expect.stringContaining('missing') }),
    );
  });

  it('never puts a value into the SQL text', () => {
    const evil = ["x' OR '1'='1", "'; DROP TABLE t; --", '$1', '?', '{{n}}', '*/ select 1 /*'];
    for (const value of evil) {
      const scoped = resolveVariables({ runtime: { v: value } });
      for (const dialect of ['postgres', 'mysql'] as const) {
        const bare = compileSql('select * from t where a = {{v}}', dialect, scoped);
        expect(bare.text).toBe(`select * from t where a = ${dialect === 'postgres' ? '$1' : '?'}`);
        expect(bare.values).toEqual([value]);
        const quoted = compileSql("select * from t where a like '%{{v}}%'", dialect, scoped);
        expect(quoted.text).toBe(`select * from t where a like ${dialect === 'postgres' ? '$1' : '?'}`);
        expect(quoted.values).toEqual([`%${value}%`]);
      }
    }
  });

  it('refuses positional parameters and stray ? markers', () => {
    expect(() => compileSql('select $1', 'postgres', vars)).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
    expect(() => compileSql('select ? ', 'mysql', vars)).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
    // Inside strings they are just text; `?` is a jsonb operator in postgres.
    expect(compileSql("select '$1', data ? 'k' from t", 'postgres', vars).values).toEqual([]);
    expect(compileSql("select 'is it?'", 'mysql', vars).values).toEqual([]);
  });

  it('keeps identifiers containing $ and casts intact', () => {
    expect(compileSql('select a$b, x::text from t$1', 'postgres', vars).text).toBe('select a$b, x::text from t$1');
  });

  it('reports an unterminated string', () => {
    expect(() => compileSql("select 'abc", 'postgres', vars)).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });

  it('types a string tested for NULL as text, in a parameter of its own, leaving its other uses untyped', () => {
    const sql = 'select * from t where ({{country}} is null or id = {{country}}) and ({{country}} IS NOT NULL or {{none}} isnull) and {{none}} = x';
    expect(compileSql(sql, 'postgres', vars)).toEqual({
      text: 'select * from t where ($1::text is null or id = $2) and ($1::text IS NOT NULL or $3::text isnull) and $4 = x',
      values: ['US', 'US', null, null],
    });
    // Comments between the placeholder and IS NULL change nothing; other types keep their one typed parameter.
    expect(compileSql('select {{country}} /* c */ is -- d\n not null, {{n}} is null, {{n}}', 'postgres', vars)).toEqual({
      text: 'select $1::text /* c */ is -- d\n not null, $2::int8 is null, $2::int8',
      values: ['US', 5],
    });
    expect(compileSql('select {{country}} is null, {{country}} is distinct from x', 'postgres', vars).text).toBe('select $1::text is null, $2 is distinct from x');
    expect(compileSql('select {{country}} is null', 'mysql', vars)).toEqual({ text: 'select ? is null', values: ['US'] });
  });

  const lists = resolveVariables({
    bindings: [
      { name: 'countries', type: 'string[]' },
      { name: 'ids', type: 'number[]' },
      { name: 'ratios', type: 'number[]' },
      { name: 'days', type: 'date[]' },
      { name: 'times', type: 'date[]' },
      { name: 'flags', type: 'boolean[]' },
      { name: 'nothing', type: 'string[]' },
    ],
    runtime: { countries: ['US', 'DE'], ids: '1,2,3', ratios: [1, 2.5], days: ['2025-01-01', '2025-01-02'], times: ['2025-01-01', '2025-01-02T10:00:00Z'], flags: 'true,0' },
  });

  it('binds a list as one typed array parameter in postgres', () => {
    const sql = 'select * from t where c = any({{countries}}) and i = any({{ids}}) and r = any({{ratios}}) and d = any({{days}}) and at = any({{times}}) and f = any({{flags}})';
    expect(compileSql(sql, 'postgres', lists)).toEqual({
      text: 'select * from t where c = any($1) and i = any($2::int8[]) and r = any($3::numeric[]) and d = any($4::date[]) and at = any($5::timestamptz[]) and f = any($6::boolean[])',
      values: [['US', 'DE'], [1, 2, 3], [1, 2.5], ['2025-01-01', '2025-01-02'], ['2025-01-01T00:00:00.000Z', '2025-01-02T10:00:00.000Z'], [true, false]],
    });
  });

  it('writes postgres IN ({{list}}) as = ANY(…) and NOT IN as <> ALL(…)', () => {
    expect(compileSql('select * from t where c in ({{countries}}) and i NOT IN ( /* x */ {{ids}} ) and {{countries}} is null', 'postgres', lists)).toEqual({
      text: 'select * from t where c = ANY($1) and i <> ALL($2::int8[] ) and $3::text[] is null',
      values: [['US', 'DE'], [1, 2, 3], ['US', 'DE']],
    });
    expect(compileSql('select * from t where c in ({{nothing}})', 'postgres', lists)).toEqual({ text: 'select * from t where c = ANY($1)', values: [null] });
    // Not alone in the parentheses, or a scalar: as written.
    expect(compileSql("select * from t where c in ({{countries}}, 'FR')", 'postgres', lists).text).toBe("select * from t where c in ($1, 'FR')");
    expect(compileSql('select * from t where c in ({{country}})', 'postgres', vars).text).toBe('select * from t where c in ($1)');
  });

  it('expands a list into one marker per value in mysql, NULL without a value', () => {
    expect(compileSql('select * from t where c in ({{countries}}) and d in ({{times}}) and f in ({{flags}})', 'mysql', lists)).toEqual({
      text: 'select * from t where c in (?, ?) and d in (?, ?) and f in (?, ?)',
      values: ['US', 'DE', '2025-01-01', '2025-01-02 10:00:00.000', true, false],
    });
    expect(compileSql('select * from t where ({{nothing}} is null or c in ({{nothing}}))', 'mysql', lists)).toEqual({
      text: 'select * from t where (? is null or c in (?))',
      values: [null, null],
    });
    // A list tested for NULL is one marker holding something other than NULL.
    const tested = compileSql('select * from t where ({{countries}} is null or c in ({{countries}}))', 'mysql', lists);
    expect(tested.text).toBe('select * from t where (? is null or c in (?, ?))');
    expect(tested.values[0]).not.toBeNull();
  });

  it('refuses a list inside a quoted literal', () => {
    for (const dialect of ['postgres', 'mysql'] as const) {
      expect(() => compileSql("select * from t where c like '%{{countries}}%'", dialect, lists)).toThrowError(
        expect.objectContaining({ statusCode: 400, code: 'VARIABLE_INVALID', message: expect.stringContaining('"countries" is a list, and a list cannot be used inside a string') }),
      );
    }
    expect(() => compileSql('select $${{ids}}$$', 'postgres', lists)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
  });

  it('binds a quoted literal holding a variable without a value as NULL, never as text with a hole', () => {
    expect(compileSql("select * from t where a like '%{{none}}%' or b = 'x-{{country}}-{{none}}' or d = date '{{none}}'", 'postgres', vars)).toEqual({
      text: 'select * from t where a like $1 or b = $2 or d = CAST($3 AS date)',
      values: [null, null, null],
    });
    expect(compileSql("select * from t where a like '%{{none}}%'", 'mysql', vars).values).toEqual([null]);
  });
});
