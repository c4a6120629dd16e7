/**
 * Resolved chart conditions as SQL predicates with bound values, mirroring conditions.ts for one
 * column kind at a time. Where the engine's answer does not depend on the row (a number column
 * against a word: "not comparable"), the predicate is a constant; where the column has two
 * values (booleans, or numbers read as booleans), the engine's own compiled test is evaluated on
 * each and the predicate picks the answer; where SQL cannot reproduce the reading (numbers parsed
 * out of text, JavaScript number formatting), the configuration is not pushed down.
 */
import { compileValueTest, dateSpanOf, isNegativeOperator, type ResolvedCondition } from '../conditions.js';
import type { ConditionOperator } from '../types.js';
import { toNumber } from '../values.js';
import type { ZoneClock } from '../zone-clock.js';
import { isDateKind, isNumberKind, type ColumnKind } from './columns.js';
import type { DialectSql } from './dialect.js';
import { Unsupported } from './errors.js';
import { SAFE_FROM, SAFE_TO } from './plan-zone.js';
import { bool, isWellFormed, join, sql, Sql } from './sql-text.js';

export interface ConditionColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  /** The value as the user's query returns it. */
  readonly value: Sql;
  /**
   * Epoch milliseconds of a date column (asks the planner to compute them), compared with
   * `bounds` as `t < bound` / `t >= bound`.
   */
  instant(bounds: readonly number[]): Sql;
  /** Told the span a date condition compares the instant with (`spanCompare`), once per compared value. */
  spanCompared(span: { start: number; end: number }): void;
  /** 1 for rows the engine may read differently (see DialectSql.unsafe); null when the kind has none. */
  flag(): Sql | null;
  /** The source's text form of the value (DialectSql.sourceText). */
  sourceText(): Sql | null;
}

export interface ConditionEnv {
  readonly dialect: DialectSql;
  readonly clock: ZoneClock;
  /** Date spans compared with a wall-clock column: the zone table must cover them. */
  noteSpan(start: number, end: number): void;
}

/** What one condition's SQL is written with: the plan's environment, and what the writing found. */
interface LocalEnv extends ConditionEnv {
  /** A timestamptz may be compared on each row as it is (one value, not a list). */
  readonly rowInstants: boolean;
  /** Set when it was. */
  comparedRows: boolean;
}

const COMPARISON: Partial<Record<ConditionOperator, string>> = {
  is: '=',
  isNot: '<>',
  greaterThan: '>',
  greaterOrEqual: '>=',
  lessThan: '<',
  lessOrEqual: '<=',
};

export function conditionSql(condition: ResolvedCondition, column: ConditionColumn, env: ConditionEnv): Sql {
  const { operator: op } = condition;
  const x = column.value;
  if (op === 'isNull' || op === 'isNotNull') {
    // The engine's own test says which way (a value of false inverts the operator).
    const wantNull = compileValueTest(condition, env.clock)(null);
    return wantNull ? sql`${x} IS NULL` : sql`${x} IS NOT NULL`;
  }
  const tiny = twoValued(condition, column, env.clock);
  if (tiny !== null) return tiny;
  const local: LocalEnv = { ...env, rowInstants: !Array.isArray(condition.value), comparedRows: false };
  const predicate = valueSql(condition, column, local);
  const flag = isDateKind(column.kind) || column.kind === 'decimal' ? column.flag() : null;
  // Compared on each row: the rows' own test lets the unsafe ones through after the comparison,
  // which most rows settle at once (the flag, carried with the rows, still makes the plan fall back).
  if (local.comparedRows) return sql`(${predicate} OR ${env.dialect.unsafe(column.kind, column.value)!})`;
  // Rows the engine might read differently pass, and are flagged so the plan falls back.
  return flag === null ? predicate : sql`(${flag} = 1 OR ${predicate})`;
}

/** Lists and the null rule, as compileValueTest does them. */
function valueSql(condition: ResolvedCondition, column: ConditionColumn, env: LocalEnv): Sql {
  const { operator: op, value } = condition;
  if (Array.isArray(value)) {
    const parts = value.map((item) => valueSql({ ...condition, value: item }, column, env));
    return sql`(${join(parts, isNegativeOperator(op) ? ' AND ' : ' OR ')})`;
  }
  const predicate = singleSql(condition, column, env);
  return isNegativeOperator(op) ? sql`(${column.value} IS NULL OR ${predicate})` : sql`(${column.value} IS NOT NULL AND ${predicate})`;
}

/**
 * Booleans have two values and numbers read as booleans three classes (1, 0, anything else):
 * the engine's own test decides each, so the SQL is exact by construction.
 */
function twoValued(condition: ResolvedCondition, column: ConditionColumn, clock: ZoneClock): Sql | null {
  const x = column.value;
  const contains = condition.operator === 'contains' || condition.operator === 'notContains';
  if (column.kind === 'bool') {
    const test = compileValueTest(condition, clock);
    return pick([
      [sql`${x} IS NULL`, test(null)],
      [x, test(true)],
      [null, test(false)],
    ]);
  }
  if (isNumberKind(column.kind) && condition.type === 'boolean' && !contains) {
    const test = compileValueTest(condition, clock);
    return pick([
      [sql`${x} IS NULL`, test(null)],
      [sql`${x} = 1`, test(1)],
      [sql`${x} = 0`, test(0)],
      [null, test(2)],
    ]);
  }
  return null;
}

function pick(branches: Array<[Sql | null, boolean]>): Sql {
  const results = branches.map((b) => b[1]);
  if (results.every((r) => r === results[0])) return bool(results[0]!);
  const whens = branches.filter((b) => b[0] !== null).map(([when, then]) => sql`WHEN ${when!} THEN ${bool(then)}`);
  const otherwise = branches.find((b) => b[0] === null)!;
  return sql`(CASE ${join(whens, ' ')} ELSE ${bool(otherwise[1])} END)`;
}

/** The test for one non-null value of the column (compileSingle). */
function singleSql(condition: ResolvedCondition, column: ConditionColumn, env: LocalEnv): Sql {
  const { operator: op, value, type } = condition;
  const { kind } = column;
  const d = env.dialect;
  const x = column.value;
  const notComparable = bool(op === 'isNot');

  if (op === 'contains' || op === 'notContains') {
    const source = column.sourceText();
    if (source === null) throw new Unsupported(`"${op}" on a ${kindName(kind)} column tests the JavaScript text of its values, which SQL does not produce`);
    const hit = d.contains(source, d.textParam(checkedText(textOf(value), false)));
    return op === 'contains' ? hit : sql`NOT (${hit})`;
  }

  if (type !== null) {
    switch (type) {
      case 'number': {
        const n = toNumber(value);
        if (n !== n || isDateKind(kind)) return notComparable;
        if (!isNumberKind(kind)) throw new Unsupported(`a number condition on a ${kindName(kind)} column parses numbers out of text`);
        return sql`(CASE WHEN ${d.nonFinite(kind, x)} THEN ${notComparable} ELSE ${compare(d.dbl(kind, x), op, d.doubleParam(n))} END)`;
      }
      case 'date': {
        const span = dateSpanOf(value, env.clock, true);
        if (span === null) return notComparable;
        if (isNumberKind(kind)) {
          return sql`(CASE WHEN ${d.nonFinite(kind, x)} THEN ${notComparable} ELSE ${spanCompare(epochMs(d.dbl(kind, x)), op, span, d)} END)`;
        }
        if (isDateKind(kind)) return dateSpanCompare(column, op, span, env);
        throw new Unsupported(`a date condition on a ${kindName(kind)} column parses dates out of text`);
      }
      case 'boolean':
        if (isDateKind(kind)) return notComparable;
        throw new Unsupported(`a boolean condition on a ${kindName(kind)} column reads booleans out of text`);
      default:
        return textCompare(column, op, textOf(value), d);
    }
  }

  const num = typeof value === 'boolean' ? Number.NaN : toNumber(value);
  const numeric = num === num;
  const span = dateSpanOf(value, env.clock, false);
  if (isNumberKind(kind)) {
    if (numeric) return sql`(CASE WHEN ${d.nanLike(kind, x)} THEN ${notComparable} ELSE ${compare(d.dbl(kind, x), op, d.doubleParam(num))} END)`;
    // Beyond 2^53 (bigint) or 1e15 (decimal) the source hands over text, which the engine compares as text.
    if (kind === 'bigint' || kind === 'decimal') {
      throw new Unsupported(`a non-numeric condition value on a ${kindName(kind)} column compares large values as text`);
    }
    if (span !== null) {
      return sql`(CASE WHEN ${d.nonFinite(kind, x)} THEN ${notComparable} ELSE ${spanCompare(epochMs(d.dbl(kind, x)), op, span, d)} END)`;
    }
    return notComparable;
  }
  if (isDateKind(kind)) {
    // ISO text against a number is not comparable; against a date it is an instant.
    if (numeric) return notComparable;
    if (span !== null) return dateSpanCompare(column, op, span, env);
    return textCompare(column, op, textOf(value), d);
  }
  if (numeric) throw new Unsupported('a numeric condition value on a text column compares the text as JavaScript numbers');
  if (span !== null) throw new Unsupported('a date condition value on a text column parses the text as dates');
  return textCompare(column, op, textOf(value), d);
}

function compare(left: Sql, op: ConditionOperator, right: Sql): Sql {
  const symbol = COMPARISON[op];
  if (symbol === undefined) throw new Unsupported(`operator "${op}"`);
  return sql`${left} ${Sql.trusted(symbol)} ${right}`;
}

/** A value read as an epoch: seconds below 1e11, else milliseconds (date-value.ts). */
function epochMs(x: Sql): Sql {
  return sql`(CASE WHEN abs(${x}) < 100000000000 THEN ${x} * 1000 ELSE ${x} END)`;
}

/** Position against [start, end): before, inside, after (compareToSpan). */
function spanCompare(t: Sql, op: ConditionOperator, span: { start: number; end: number }, d: DialectSql): Sql {
  return spanBounds(t, op, d.doubleParam(span.start), d.doubleParam(span.end));
}

function spanBounds(t: Sql, op: ConditionOperator, start: Sql, end: Sql): Sql {
  switch (op) {
    case 'is':
      return sql`(${t} >= ${start} AND ${t} < ${end})`;
    case 'isNot':
      return sql`(${t} < ${start} OR ${t} >= ${end})`;
    case 'greaterThan':
      return sql`${t} >= ${end}`;
    case 'greaterOrEqual':
      return sql`${t} >= ${start}`;
    case 'lessThan':
      return sql`${t} < ${start}`;
    case 'lessOrEqual':
      return sql`${t} < ${end}`;
    default:
      throw new Unsupported(`operator "${op}"`);
  }
}

function dateSpanCompare(column: ConditionColumn, op: ConditionOperator, span: { start: number; end: number }, env: LocalEnv): Sql {
  if (column.kind !== 'instant') env.noteSpan(span.start, span.end);
  column.spanCompared(span);
  const d = env.dialect;
  // A timestamptz's instant is its epoch milliseconds, floored: against whole milliseconds the
  // column itself compares the same, row by row, with no instant computed and no time cells.
  if (column.kind === 'instant' && env.rowInstants && wholeInstant(span.start) && wholeInstant(span.end)) {
    const start = d.instantParam(span.start);
    const end = d.instantParam(span.end);
    if (start !== null && end !== null) {
      env.comparedRows = true;
      return spanBounds(column.value, op, start, end);
    }
  }
  return spanCompare(column.instant([span.start, span.end]), op, span, d);
}

/** Whole epoch milliseconds of years 2–9997, which a timestamptz literal writes exactly. */
function wholeInstant(ms: number): boolean {
  return Number.isSafeInteger(ms) && ms >= SAFE_FROM && ms < SAFE_TO;
}

function textCompare(column: ConditionColumn, op: ConditionOperator, text: string, d: DialectSql): Sql {
  const source = column.sourceText();
  if (source === null) throw new Unsupported(`a text comparison on a ${kindName(column.kind)} column compares the JavaScript text of its values`);
  const ordered = op !== 'is' && op !== 'isNot';
  return compare(source, op, d.textParam(checkedText(text, ordered)));
}

/**
 * Databases order UTF-8 by code point, JavaScript strings by UTF-16 code unit. The two orders
 * agree against a value whose characters are all below U+D800 (see docs/chart-data.md).
 */
function checkedText(text: string, ordered: boolean): string {
  if (!isWellFormed(text)) throw new Unsupported('the condition value holds a lone surrogate, which a database cannot store');
  if (text.includes('\u0000')) throw new Unsupported('the condition value holds a NUL character');
  if (ordered && /[\uD800-\uFFFF]/.test(text)) {
    throw new Unsupported('an ordering condition on text with characters from U+D800 up sorts differently in UTF-16 and in the database');
  }
  return text;
}

function textOf(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

export function kindName(kind: ColumnKind): string {
  switch (kind) {
    case 'int':
    case 'bigint':
      return 'integer';
    case 'decimal':
      return 'decimal';
    case 'float':
      return 'floating-point';
    case 'bool':
      return 'boolean';
    case 'text':
      return 'text';
    case 'instant':
      return 'timestamp with time zone';
    case 'wall':
      return 'date-time';
    case 'date':
      return 'date';
  }
}
