import pg from 'pg';
import type { ColumnInfo, ColumnType } from '../types.js';
import { naiveTimestampToIso, parseBigInteger, parseDecimal, zonedTimestampToIso } from '../values.js';

type Parser = (text: string) => unknown;

const identity: Parser = (text) => text;

/** Element parsers for the types whose default pg parsing is lossy or zone-dependent. */
const SCALARS: Record<number, Parser> = {
  20: parseBigInteger, // int8
  1700: parseDecimal, // numeric
  1082: identity, // date: pg would make a local-midnight Date
  1114: naiveTimestampToIso, // timestamp
  1184: zonedTimestampToIso, // timestamptz
  1083: identity, // time
  1266: identity, // timetz
  1186: identity, // interval: pg would make an object
  17: identity, // bytea: kept as its `\x…` text
};

/** Array OIDs of the scalars above. */
const ARRAYS: Record<number, number> = { 1016: 20, 1231: 1700, 1182: 1082, 1115: 1114, 1185: 1184, 1183: 1083, 1270: 1266, 1187: 1186, 1001: 17 };

const arrayParser = (pg.types as unknown as { arrayParser: { create(text: string, parse: Parser): { parse(): unknown[] } } }).arrayParser;

/** Type parsers for every pool and cursor (pg-cursor ignores the client's own). */
export const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format === 'binary') return pg.types.getTypeParser(oid, 'binary');
    const scalar = SCALARS[oid];
    if (scalar) return scalar;
    const element = ARRAYS[oid];
    if (element !== undefined) {
      const parse = SCALARS[element]!;
      return (text: string) => arrayParser.create(text, parse).parse();
    }
    return pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

const TYPE_NAMES: Record<number, [string, ColumnType]> = {
  16: ['bool', 'boolean'],
  17: ['bytea', 'binary'],
  18: ['char', 'string'],
  19: ['name', 'string'],
  20: ['int8', 'number'],
  21: ['int2', 'number'],
  23: ['int4', 'number'],
  25: ['text', 'string'],
  26: ['oid', 'number'],
  114: ['json', 'json'],
  142: ['xml', 'string'],
  700: ['float4', 'number'],
  701: ['float8', 'number'],
  790: ['money', 'string'],
  1042: ['bpchar', 'string'],
  1043: ['varchar', 'string'],
  1082: ['date', 'date'],
  1083: ['time', 'string'],
  1114: ['timestamp', 'date'],
  1184: ['timestamptz', 'date'],
  1186: ['interval', 'string'],
  1266: ['timetz', 'string'],
  1700: ['numeric', 'number'],
  2950: ['uuid', 'string'],
  3802: ['jsonb', 'json'],
  869: ['inet', 'string'],
  650: ['cidr', 'string'],
};

export function postgresColumns(fields: ReadonlyArray<{ name: string; dataTypeID: number }>): ColumnInfo[] {
  return fields.map((field) => {
    const known = TYPE_NAMES[field.dataTypeID];
    if (known) return { name: field.name, type: known[1], sourceType: known[0] };
    // Array and other composite values arrive as parsed JSON-like structures.
    return { name: field.name, type: 'unknown', sourceType: `oid:${field.dataTypeID}` };
  });
}
