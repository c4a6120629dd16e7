/**
 * What a result column holds, as far as exact pushdown is concerned. The kind says how the
 * source hands the values to the streaming engine (see src/sources/values.ts), which decides
 * what SQL reproduces the engine's reading of them:
 * - int: integers that are always JS numbers;
 * - bigint: 64-bit integers, numbers up to 2^53 and exact text beyond;
 * - decimal: exact decimals, numbers below 1e15 and exact text from there (NaN/Infinity as text);
 * - float: binary doubles;
 * - bool: Postgres booleans;
 * - text: strings (MySQL binary strings arrive as base64);
 * - instant: Postgres timestamptz, ISO text in UTC;
 * - wall: date-times without a zone (Postgres timestamp, MySQL DATETIME and TIMESTAMP), which the
 *   engine reads as wall-clock time in the chart's zone;
 * - date: calendar dates, read as local midnight.
 */
import type { PushdownDialect } from './sql-text.js';

export type ColumnKind = 'int' | 'bigint' | 'decimal' | 'float' | 'bool' | 'text' | 'instant' | 'wall' | 'date';

/** The column description a source reports (`RunMeta.columns`, `ColumnInfo`). */
export interface ResultColumn {
  name: string;
  type?: string;
  sourceType?: string;
}

const POSTGRES: Record<string, ColumnKind> = {
  int2: 'int',
  int4: 'int',
  int8: 'bigint',
  numeric: 'decimal',
  float8: 'float',
  bool: 'bool',
  text: 'text',
  varchar: 'text',
  uuid: 'text',
  timestamptz: 'instant',
  timestamp: 'wall',
  date: 'date',
};

const MYSQL: Record<string, ColumnKind> = {
  TINY: 'int',
  SHORT: 'int',
  LONG: 'int',
  INT24: 'int',
  YEAR: 'int',
  LONGLONG: 'bigint',
  DECIMAL: 'decimal',
  NEWDECIMAL: 'decimal',
  DOUBLE: 'float',
  VAR_STRING: 'text',
  STRING: 'text',
  VARCHAR: 'text',
  BLOB: 'text',
  TINY_BLOB: 'text',
  MEDIUM_BLOB: 'text',
  LONG_BLOB: 'text',
  ENUM: 'text',
  SET: 'text',
  DATETIME: 'wall',
  TIMESTAMP: 'wall',
  DATE: 'date',
  NEWDATE: 'date',
};

/**
 * The kind of a column, or null for types the engine reads in ways SQL cannot mirror exactly
 * (float4/FLOAT widen differently, char(n) loses its padding in casts, JSON, arrays, intervals, …).
 */
export function columnKind(column: ResultColumn, dialect: PushdownDialect): ColumnKind | null {
  if (column.type === 'json' || column.type === 'binary' || typeof column.sourceType !== 'string') return null;
  const table = dialect === 'postgres' ? POSTGRES : MYSQL;
  return Object.hasOwn(table, column.sourceType) ? table[column.sourceType]! : null;
}

export function isNumberKind(kind: ColumnKind): boolean {
  return kind === 'int' || kind === 'bigint' || kind === 'decimal' || kind === 'float';
}

export function isDateKind(kind: ColumnKind): kind is 'instant' | 'wall' | 'date' {
  return kind === 'instant' || kind === 'wall' || kind === 'date';
}
