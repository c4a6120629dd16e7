/**
 * Every piece of SQL that differs between Postgres and MySQL/MariaDB, per column kind. Each
 * expression reproduces what the streaming engine sees in the value the source hands over
 * (src/sources/values.ts, the drivers' type parsers), not what the database would naturally do:
 * text compares by code points with no collation folding or padding, numbers compare as the
 * doubles JavaScript holds, date-times become the same epoch milliseconds.
 */
import type { ColumnKind } from './columns.js';
import { FALSE, int, quoteIdentifier, sql, Sql, type PushdownDialect } from './sql-text.js';

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
  /** Exact value for sums (wide enough that ABS and SUM cannot overflow). */
  exactNumber(kind: ColumnKind, x: Sql): Sql;
  /** Decimal places of a decimal value (scale); constant 0 for integers. */
  scale(kind: ColumnKind, x: Sql): Sql;
  /** A key that makes equal values equal for COUNT(DISTINCT), as the engine's distinct keys do. */
  distinctValue(kind: ColumnKind, x: Sql): Sql | null;
  /** Limit clause. */
  limit(n: number): Sql;
  /**
   * Ends a stage's SELECT so the optimizer keeps it a separate step instead of substituting its
   * expressions into the next stage: each alias appears in every WHEN of the offset CASE, so
   * substitution would multiply the expression (Postgres then spends seconds planning or JIT-compiling).
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

const postgres: DialectSql = {
  name: 'postgres',
  ident: (name) => {
    const q = quoteIdentifier(name, 'postgres');
    return q === null ? null : Sql.trusted(q);
  },
  dbl: (kind, x) =>
    kind === 'decimal'
      ? sql`CAST(CASE WHEN CAST(${x} AS text) IN ${PG_NON_FINITE_TEXT} OR abs(${x}) < ${HUGE_DECIMAL} THEN ${x} END AS double precision)`
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
        return sql`(${x} IS NOT NULL AND CAST(${x} AS text) NOT IN ${PG_NON_FINITE_TEXT} AND abs(${x}) >= ${HUGE_DECIMAL})`;
      default:
        return null;
    }
  },
  nanLike: (kind, x) =>
    kind === 'float' ? sql`${x} = ${PG_FLOAT_NAN}` : kind === 'decimal' ? sql`CAST(${x} AS text) IN ${PG_NON_FINITE_TEXT}` : FALSE,
  nonFinite: (kind, x) =>
    kind === 'float' ? sql`${x} IN ${PG_FLOAT_NON_FINITE}` : kind === 'decimal' ? sql`CAST(${x} AS text) IN ${PG_NON_FINITE_TEXT}` : FALSE,
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
  exactNumber: (kind, x) => (kind === 'int' ? sql`CAST(${x} AS bigint)` : sql`CAST(${x} AS numeric)`),
  scale: (kind, x) => (kind === 'decimal' ? sql`scale(${x})` : int(0)),
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
  fence: Sql.trusted(' OFFSET 0'),
  flag: (condition) => sql`CASE WHEN ${condition} THEN 1 ELSE 0 END`,
};

/**
 * MySQL/MariaDB strings are compared as utf8mb4 bytes (no case folding, no PAD SPACE); binary
 * strings reach JavaScript as base64 (the source's typeCast), so they are compared as such.
 */
function mysqlTextBytes(x: Sql): Sql {
  return sql`CAST(IF(CHARSET(${x}) = 'binary', REPLACE(TO_BASE64(${x}), CHAR(10 USING ascii), ''), CONVERT(${x} USING utf8mb4)) AS BINARY)`;
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
