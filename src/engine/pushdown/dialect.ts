/**
 * Every piece of SQL that differs between Postgres and MySQL/MariaDB, per column kind. Each
 * expression reproduces what the streaming engine sees in the value the source hands over
 * (src/sources/values.ts, the drivers' type parsers), not what the database would naturally do:
 * text compares by code points with no collation folding or padding, numbers compare as the
 * doubles JavaScript holds, date-times become the same epoch milliseconds.
 */
import { DAY_MS } from '../calendar.js';
import type { ColumnKind } from './columns.js';
import { FALSE, int, join, quoteIdentifier, sql, Sql, type PushdownDialect } from './sql-text.js';
import { piecewise } from './zone-offsets.js';

/** Cells of a date-time column: see DialectSql.cellKeys. */
export interface Cell {
  readonly kind: 'instant' | 'wall';
  readonly size: number;
  readonly shift: number;
  /** Where cells are also cut (ms, ascending, off cell edges, years 2–9998): only where `splitsCells`. */
  readonly splits: readonly number[];
}

export interface DialectSql {
  readonly name: PushdownDialect;
  ident(name: string): Sql | null;
  /** A double: the value JavaScript would hold (null for values a double cannot hold). */
  dbl(kind: ColumnKind, x: Sql): Sql;
  doubleParam(value: number): Sql;
  /** A text bound parameter in the comparison space of `text()`. */
  textParam(value: string): Sql;
  /** Turns an expression producing text into the byte-wise (code point order) comparison space. */
  compareSpace(text: Sql): Sql;
  /** The source's text form of a value, in comparison space; null when SQL cannot produce it exactly. */
  sourceText(kind: ColumnKind, x: Sql): Sql | null;
  contains(haystack: Sql, needle: Sql): Sql;
  /** Floor modulo by a positive constant (SQL MOD keeps the dividend's sign). */
  floorMod(x: Sql, m: number): Sql;
  /** Division of an exact multiple of `m` by `m`. */
  exactDiv(x: Sql, m: number): Sql;
  /** Day of month / day of year of a day number (days since 1970-01-01). */
  dayOfMonth(days: Sql): Sql;
  dayOfYear(days: Sql): Sql;
  /** Epoch milliseconds (instants) or wall milliseconds (naive values) of a date column; null when unsafe. */
  millis(kind: 'instant' | 'wall' | 'date', x: Sql): Sql;
  /**
   * True for non-null values the engine may read differently from SQL (dates it cannot parse or
   * outside years 1–9999, decimals too large for a double); null when the kind has none.
   */
  unsafe(kind: ColumnKind, x: Sql): Sql | null;
  /** Values the engine's untyped number comparison finds not comparable (NaN, numeric text infinities). */
  nanLike(kind: ColumnKind, x: Sql): Sql;
  /** Values that are not finite numbers for the engine's `toNumber`. */
  nonFinite(kind: ColumnKind, x: Sql): Sql;
  /** Comparable bound for a window/span instant (epoch ms, possibly fractional). */
  wallParam(wallMs: number): Sql;
  /** A text key for grouping by the text the engine sees, as returned to JavaScript. */
  textKey(kind: ColumnKind, x: Sql): Sql | null;
  /** How textKey values come back: plain text, or hex of UTF-8 bytes (MySQL, to survive collations). */
  readonly textKeyEncoding: 'text' | 'hex';
  /** Exact value for sums (wide enough that SUM and arithmetic on it cannot overflow). */
  exactNumber(kind: ColumnKind, x: Sql): Sql;
  /** Decimal places of a decimal value (scale); constant 0 for integers. Of a sum: the most decimals of its terms. */
  scale(kind: ColumnKind, x: Sql): Sql;
  /** Aggregate: the sum of the negative values (null when there are none). */
  sumNegative(x: Sql): Sql;
  /**
   * True for an aggregate of a number column (a sum, a minimum) that holds a value the engine reads
   * differently (see unsafe) or a non-finite one; null when the kind has none.
   */
  hugeAggregate(kind: ColumnKind, x: Sql): Sql | null;
  /**
   * Row-level GROUP BY keys for a column whose labels or distinct values are then computed once per
   * group: the first is the value itself (equal keys give equal labels), the others only split
   * groups. Null when the value must be turned into its label on every row (MySQL text, whose
   * grouping would follow the column's collation).
   */
  groupKeys(kind: ColumnKind, x: Sql): Sql[] | null;
  /** The largest cell length (ms) this dialect groups by that divides `size`. */
  cellSize(size: number): number;
  /** Whether cells can also be cut at listed instants (else the cell length divides them). */
  readonly splitsCells: boolean;
  /**
   * Row-level GROUP BY keys that put a date-time in its cell: `size` ms of its wall time (UTC for
   * timestamptz) plus `shift` ms, counted from the epoch.
   */
  cellKeys(cell: Cell, x: Sql): Sql[];
  /** The cell's first value, of the column's type, from the keys. */
  cellStart(cell: Cell, keys: readonly Sql[]): Sql;
  /** The cell's last value (its first plus the cell less a microsecond); null where flags come from the rows. */
  cellEnd(cell: Cell, start: Sql): Sql | null;
  /** A key that makes equal values equal for COUNT(DISTINCT), as the engine's distinct keys do. */
  distinctValue(kind: ColumnKind, x: Sql): Sql | null;
  /** Limit clause. */
  limit(n: number): Sql;
  /** values[i] where i is the number of thresholds (ascending) at or below x: the zone table's lookups. */
  lookup(x: Sql, thresholds: readonly number[], values: readonly number[]): Sql;
  /**
   * Ends a stage's SELECT so the optimizer keeps it a separate step instead of substituting its
   * expressions into the next stage: later stages name an alias several times (MySQL in every WHEN
   * of the offset CASE), so substitution would multiply the expression. Used after grouping, where
   * it costs nothing.
   */
  readonly fence: Sql;
  flag(condition: Sql): Sql;
}

const PG_NON_FINITE_TEXT = Sql.trusted("('NaN', 'Infinity', '-Infinity')");
const PG_FLOAT_NAN = Sql.trusted("CAST('NaN' AS double precision)");
const PG_FLOAT_NON_FINITE = Sql.trusted(
  "(CAST('NaN' AS double precision), CAST('Infinity' AS double precision), CAST('-Infinity' AS double precision))",
);

/** Decimals at least this large overflow or lose the double range; rows holding them are flagged. */
const HUGE_DECIMAL = Sql.trusted('1e300');

/** A whole number of microseconds (computed here, never from a row or a configuration). */
function pgInterval(us: number): Sql {
  if (!Number.isSafeInteger(us)) throw new RangeError(`not a safe integer: ${us}`);
  return Sql.trusted(`INTERVAL '${us} microseconds'`);
}

/** Wall-clock (or UTC) milliseconds of years 1–9999 as a timestamp array. */
function timestampArray(items: readonly number[]): Sql {
  return sql`CAST(ARRAY[${join(
    items.map((ms) => Sql.trusted(`'${wallText(ms)}'`)),
    ', ',
  )}] AS timestamp[])`;
}

function bigintArray(items: readonly number[]): Sql {
  return sql`CAST(ARRAY[${join(items.map(int), ', ')}] AS bigint[])`;
}

/** NaN and the infinities, without a text cast for ordinary values. */
function pgNonFiniteDecimal(x: Sql): Sql {
  return sql`(NOT (abs(${x}) < ${HUGE_DECIMAL}) AND CAST(${x} AS text) IN ${PG_NON_FINITE_TEXT})`;
}

/**
 * Cells Postgres truncates to cheaply, longest first: calendar units, or an hour split in equal
 * minutes. Each is aligned on the epoch (in UTC for timestamptz), so the longest one dividing a
 * length is a whole number of cells of that length.
 */
const PG_CELLS: ReadonlyArray<{ ms: number; unit: string | null }> = [
  { ms: DAY_MS, unit: 'day' },
  { ms: 3_600_000, unit: 'hour' },
  ...[30, 20, 15, 12, 10, 6, 5, 4, 3, 2].map((k) => ({ ms: k * 60_000, unit: null })),
  { ms: 60_000, unit: 'minute' },
  { ms: 1_000, unit: 'second' },
  { ms: 1, unit: 'milliseconds' },
];

const postgres: DialectSql = {
  name: 'postgres',
  ident: (name) => {
    const q = quoteIdentifier(name, 'postgres');
    return q === null ? null : Sql.trusted(q);
  },
  // The numeric comparison first: the text cast only runs for NaN, infinities and huge values.
  dbl: (kind, x) =>
    kind === 'decimal'
      ? sql`CAST(CASE WHEN abs(${x}) < ${HUGE_DECIMAL} OR CAST(${x} AS text) IN ${PG_NON_FINITE_TEXT} THEN ${x} END AS double precision)`
      : sql`CAST(${x} AS double precision)`,
  doubleParam: (value) => sql`CAST(${Sql.param(value)} AS double precision)`,
  textParam: (value) => sql`CAST(${Sql.param(value)} AS text)`,
  compareSpace: (text) => sql`(${text}) COLLATE "C"`,
  sourceText(kind, x) {
    const text = this.textKey(kind, x);
    return text === null ? null : this.compareSpace(text);
  },
  contains: (haystack, needle) => sql`strpos(${haystack}, ${needle}) > 0`,
  floorMod: (x, m) => sql`mod(mod(${x}, ${int(m)}) + ${int(m)}, ${int(m)})`,
  exactDiv: (x, m) => sql`(${x}) / ${int(m)}`,
  dayOfMonth: (days) => sql`CAST(extract(day FROM DATE '1970-01-01' + CAST(${days} AS integer)) AS bigint)`,
  dayOfYear: (days) => sql`CAST(extract(doy FROM DATE '1970-01-01' + CAST(${days} AS integer)) AS bigint)`,
  millis(kind, x) {
    const safe = sql`NOT ${this.unsafe(kind, x)!}`;
    if (kind === 'date') return sql`CASE WHEN ${safe} THEN CAST(${x} - DATE '1970-01-01' AS bigint) * 86400000 END`;
    // Rounding the epoch to microseconds first keeps this exact where extract() returns a double (Postgres < 14).
    return sql`CASE WHEN ${safe} THEN CAST(floor(CAST(extract(epoch FROM ${x}) AS numeric(20, 6)) * 1000) AS bigint) END`;
  },
  unsafe(kind, x) {
    switch (kind) {
      // The source prints timestamptz in the session zone: keep two days away from the year limits.
      case 'instant':
        return sql`(${x} IS NOT NULL AND NOT (${x} >= TIMESTAMPTZ '0001-01-03 00:00:00+00' AND ${x} < TIMESTAMPTZ '9999-12-29 00:00:00+00'))`;
      case 'wall':
        return sql`(${x} IS NOT NULL AND NOT (${x} >= TIMESTAMP '0001-01-01 00:00:00' AND ${x} < TIMESTAMP '10000-01-01 00:00:00'))`;
      case 'date':
        return sql`(${x} IS NOT NULL AND NOT (${x} >= DATE '0001-01-01' AND ${x} < DATE '10000-01-01'))`;
      case 'decimal':
        return sql`(${x} IS NOT NULL AND abs(${x}) >= ${HUGE_DECIMAL} AND CAST(${x} AS text) NOT IN ${PG_NON_FINITE_TEXT})`;
      default:
        return null;
    }
  },
  nanLike: (kind, x) => (kind === 'float' ? sql`${x} = ${PG_FLOAT_NAN}` : kind === 'decimal' ? pgNonFiniteDecimal(x) : FALSE),
  nonFinite: (kind, x) => (kind === 'float' ? sql`${x} IN ${PG_FLOAT_NON_FINITE}` : kind === 'decimal' ? pgNonFiniteDecimal(x) : FALSE),
  wallParam: (wallMs) => sql`CAST(${Sql.param(wallText(wallMs))} AS timestamp)`,
  textKey(kind, x) {
    switch (kind) {
      case 'int':
      case 'bigint':
      case 'text':
      case 'date':
        return sql`CAST(${x} AS text)`;
      case 'wall':
        // Mirrors naiveTimestampToIso: the space at position 10 becomes "T".
        return sql`(CASE WHEN substr(CAST(${x} AS text), 11, 1) = ' ' THEN overlay(CAST(${x} AS text) PLACING 'T' FROM 11 FOR 1) ELSE CAST(${x} AS text) END)`;
      default:
        return null;
    }
  },
  textKeyEncoding: 'text',
  // SUM of bigint and numeric is numeric already; int4 sums are widened so twice their negative part fits.
  exactNumber: (kind, x) => (kind === 'int' ? sql`CAST(${x} AS bigint)` : x),
  scale: (kind, x) => (kind === 'decimal' ? sql`scale(${x})` : int(0)),
  sumNegative: (x) => sql`SUM(${x}) FILTER (WHERE ${x} < 0)`,
  // NaN sorts above every number and abs(±Infinity) is Infinity: one comparison covers them all.
  hugeAggregate: (kind, x) => (kind === 'decimal' ? sql`abs(${x}) >= ${HUGE_DECIMAL}` : null),
  groupKeys(kind, x) {
    switch (kind) {
      case 'text':
        return [this.compareSpace(sql`CAST(${x} AS text)`)];
      case 'decimal':
        // Equal numerics with other scales (1.5, 1.50) print differently from 1e15 on.
        return [x, sql`scale(${x})`];
      default:
        return [x];
    }
  },
  cellSize: (size) => PG_CELLS.find((cell) => size % cell.ms === 0)!.ms,
  splitsCells: true,
  cellKeys({ kind, size, shift, splits }, x) {
    const utc = kind === 'instant' ? sql`(${x} AT TIME ZONE 'UTC')` : x;
    // Shifted, the last day Postgres can hold would overflow: such values land in a cell past year 9999 instead.
    const last = kind === 'instant' ? Sql.trusted(`TIMESTAMPTZ '294276-12-30 00:00:00+00'`) : Sql.trusted(`TIMESTAMP '294276-12-30 00:00:00'`);
    const clamped = sql`(CASE WHEN ${x} > ${last} THEN TIMESTAMP '294276-12-30 00:00:00' ELSE ${utc} END)`;
    const v = shift === 0 ? utc : sql`(${clamped} + ${pgInterval(shift * 1000)})`;
    const cell = PG_CELLS.find((c) => c.ms === size)!;
    const keys =
      cell.unit !== null
        ? [sql`date_trunc(${Sql.trusted(`'${cell.unit}'`)}, ${v})`]
        : [sql`date_trunc('hour', ${v})`, sql`CAST(floor(date_part('minute', ${v}) / ${int(size / 60_000)}) AS integer)`];
    // The number of split instants at or before the value: a binary search in C.
    if (splits.length > 0) keys.push(sql`width_bucket(${v}, ${timestampArray(splits)})`);
    return keys;
  },
  cellStart({ kind, size, shift, splits }, keys) {
    // date_part gives null for infinite values, which date_trunc keeps.
    const whole = PG_CELLS.find((c) => c.ms === size)!.unit !== null;
    let start = whole ? keys[0]! : sql`${keys[0]!} + COALESCE(${keys[1]!}, 0) * ${pgInterval(size * 1000)}`;
    // A cell cut at a split starts there (index 0 is null: no split before the value).
    if (splits.length > 0) start = sql`GREATEST(${start}, (${timestampArray(splits)})[${keys[keys.length - 1]!}])`;
    // Unshifted, the first day Postgres can hold would underflow: cells before year 1 read as -infinity.
    if (shift !== 0) start = sql`(CASE WHEN ${start} < TIMESTAMP '0001-01-01 00:00:00' THEN TIMESTAMP '-infinity' ELSE ${start} - ${pgInterval(shift * 1000)} END)`;
    return kind === 'instant' ? sql`((${start}) AT TIME ZONE 'UTC')` : start;
  },
  cellEnd: ({ size }, start) => sql`(${start} + ${pgInterval(size * 1000 - 1)})`,
  distinctValue(kind, x) {
    switch (kind) {
      case 'int':
      case 'bigint':
      case 'float':
      case 'bool':
      case 'wall':
      case 'date':
        return x;
      case 'text':
        return this.compareSpace(sql`CAST(${x} AS text)`);
      default:
        return null;
    }
  },
  limit: (n) => sql` LIMIT ${int(n)}`,
  // A binary search in C over constant arrays: the planner costs (and JIT compiles) one call, where
  // a CASE of every transition is costed whole on every row it expects.
  lookup: (x, thresholds, values) =>
    thresholds.length === 0
      ? int(values[0]!)
      : sql`(${bigintArray(values)})[width_bucket(${x}, ${bigintArray(thresholds)}) + 1]`,
  fence: Sql.trusted(' OFFSET 0'),
  flag: (condition) => sql`CASE WHEN ${condition} THEN 1 ELSE 0 END`,
};

/**
 * MySQL/MariaDB strings are compared as utf8mb4 bytes (no case folding, no PAD SPACE); binary
 * strings reach JavaScript as base64 (the source's typeCast), so they are compared as such.
 * TO_BASE64 breaks lines every 76 characters: the newlines go. `CHAR(10)` (a binary string) and
 * not `CHAR(10 USING ascii)`, which the statement check's parser refuses, and with it the query.
 */
function mysqlTextBytes(x: Sql): Sql {
  return sql`CAST(IF(CHARSET(${x}) = 'binary', REPLACE(TO_BASE64(${x}), CHAR(10), ''), CONVERT(${x} USING utf8mb4)) AS BINARY)`;
}

/** The text mysql2 produces for DATETIME/TIMESTAMP: no fraction when it is zero, else the column's digits. */
function mysqlWallText(x: Sql): Sql {
  return sql`REPLACE(IF(MICROSECOND(${x}) = 0, DATE_FORMAT(${x}, '%Y-%m-%d %H:%i:%s'), CAST(${x} AS CHAR)), ' ', 'T')`;
}

const mysql: DialectSql = {
  name: 'mysql',
  ident: (name) => {
    const q = quoteIdentifier(name, 'mysql');
    return q === null ? null : Sql.trusted(q);
  },
  dbl: (_kind, x) => sql`CAST(${x} AS DOUBLE)`,
  doubleParam: (value) => sql`CAST(${Sql.param(value)} AS DOUBLE)`,
  textParam: (value) => sql`CAST(${Sql.param(value)} AS BINARY)`,
  compareSpace: (text) => sql`CAST(CONVERT(${text} USING utf8mb4) AS BINARY)`,
  sourceText(kind, x) {
    switch (kind) {
      case 'text':
        return mysqlTextBytes(x);
      case 'int':
      case 'bigint':
      case 'date':
        return sql`CAST(CAST(${x} AS CHAR) AS BINARY)`;
      case 'wall':
        return sql`CAST(${mysqlWallText(x)} AS BINARY)`;
      default:
        return null;
    }
  },
  contains: (haystack, needle) => sql`LOCATE(${needle}, ${haystack}) > 0`,
  floorMod: (x, m) => sql`MOD(MOD(${x}, ${int(m)}) + ${int(m)}, ${int(m)})`,
  exactDiv: (x, m) => sql`((${x}) DIV ${int(m)})`,
  dayOfMonth: (days) => sql`DAYOFMONTH(DATE_ADD(DATE '1970-01-01', INTERVAL ${days} DAY))`,
  dayOfYear: (days) => sql`DAYOFYEAR(DATE_ADD(DATE '1970-01-01', INTERVAL ${days} DAY))`,
  millis(_kind, x) {
    return sql`CASE WHEN LAST_DAY(${x}) IS NOT NULL THEN FLOOR(TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', ${x}) / 1000) END`;
  },
  unsafe(kind, x) {
    // Zero dates and invalid days ('2025-02-30' under ALLOW_INVALID_DATES) are text the engine cannot parse.
    if (kind === 'wall' || kind === 'date') return sql`(${x} IS NOT NULL AND LAST_DAY(${x}) IS NULL)`;
    return null;
  },
  nanLike: () => FALSE,
  nonFinite: () => FALSE,
  wallParam: (wallMs) => sql`CAST(${Sql.param(wallText(wallMs))} AS DATETIME(3))`,
  textKey(kind, x) {
    switch (kind) {
      case 'text':
        return sql`HEX(${mysqlTextBytes(x)})`;
      case 'int':
      case 'bigint':
      case 'date':
        return sql`HEX(CAST(${x} AS CHAR))`;
      case 'wall':
        return sql`HEX(${mysqlWallText(x)})`;
      default:
        return null;
    }
  },
  textKeyEncoding: 'hex',
  exactNumber: (kind, x) => (kind === 'bigint' ? sql`CAST(${x} AS DECIMAL(65, 0))` : x),
  sumNegative: (x) => sql`SUM(CASE WHEN ${x} < 0 THEN ${x} END)`,
  hugeAggregate: () => null,
  // Text groups by its label (a collation would merge 'a' and 'A '); other values group as they are.
  groupKeys: (kind, x) => (kind === 'text' ? null : [x]),
  cellSize: (size) => size,
  splitsCells: false,
  cellKeys({ size, shift }, x) {
    if (size === DAY_MS && shift === 0) return [sql`DATE(${x})`];
    const diff = sql`TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', ${x})`;
    const us = shift === 0 ? diff : sql`(${diff} + ${int(shift * 1000)})`;
    return [sql`${us} - ${this.floorMod(us, size * 1000)}`];
  },
  // A DATE reads as its midnight wherever a date-time is expected.
  cellStart: ({ size, shift }, keys) => {
    if (size === DAY_MS && shift === 0) return keys[0]!;
    const us = shift === 0 ? keys[0]! : sql`${keys[0]!} - ${int(shift * 1000)}`;
    return sql`TIMESTAMPADD(MICROSECOND, ${us}, TIMESTAMP '1970-01-01 00:00:00')`;
  },
  // A zero date or an invalid day has no microsecond count, so its cell says nothing about it.
  cellEnd: () => null,
  scale: (kind, x) =>
    kind === 'decimal'
      ? sql`(CASE WHEN LOCATE('.', CAST(${x} AS CHAR)) > 0 THEN CHAR_LENGTH(CAST(${x} AS CHAR)) - LOCATE('.', CAST(${x} AS CHAR)) ELSE 0 END)`
      : int(0),
  distinctValue(kind, x) {
    switch (kind) {
      case 'int':
      case 'bigint':
      case 'float':
      case 'date':
        return x;
      case 'wall':
        // TIMESTAMP values that print alike in the session zone (clocks going back) are one text.
        return sql`CAST(${x} AS DATETIME(6))`;
      case 'text':
        return mysqlTextBytes(x);
      default:
        return null;
    }
  },
  limit: (n) => sql` LIMIT ${int(n)}`,
  lookup: piecewise,
  // A derived table with LIMIT is never merged into the outer query.
  fence: Sql.trusted(' LIMIT 18446744073709551615'),
  flag: (condition) => sql`CASE WHEN ${condition} THEN 1 ELSE 0 END`,
};

export function dialectSql(dialect: PushdownDialect): DialectSql {
  return dialect === 'postgres' ? postgres : mysql;
}

/** `YYYY-MM-DD HH:MM:SS.mmm` of a wall-clock millisecond value (years 0–9999). */
function wallText(wallMs: number): string {
  return new Date(wallMs).toISOString().slice(0, 23).replace('T', ' ');
}
