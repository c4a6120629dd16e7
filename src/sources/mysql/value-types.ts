import type { FieldPacket, TypeCast } from 'mysql2';
import type { ColumnInfo, ColumnType } from '../types.js';
import { naiveTimestampToIso, parseDecimal } from '../values.js';

/** Values normalized like every other source (see values.ts). */
export const typeCast: TypeCast = (field, next) => {
  switch (field.type) {
    case 'NEWDECIMAL':
    case 'DECIMAL': {
      const text = field.string();
      return text === null ? null : parseDecimal(text);
    }
    case 'DATETIME':
    case 'TIMESTAMP': {
      const text = field.string();
      return text === null ? null : naiveTimestampToIso(text);
    }
    case 'DATE':
    case 'NEWDATE':
      return field.string();
    case 'BIT': {
      const bits = field.buffer();
      return bits === null ? null : bits.length <= 6 ? bits.readUIntBE(0, bits.length || 1) : bits.toString('hex');
    }
    default: {
      const value: unknown = next();
      return Buffer.isBuffer(value) ? value.toString('base64') : value;
    }
  }
};

const COLUMN_TYPES: Record<number, [string, ColumnType]> = {
  0: ['DECIMAL', 'number'],
  1: ['TINY', 'number'],
  2: ['SHORT', 'number'],
  3: ['LONG', 'number'],
  4: ['FLOAT', 'number'],
  5: ['DOUBLE', 'number'],
  7: ['TIMESTAMP', 'date'],
  8: ['LONGLONG', 'number'],
  9: ['INT24', 'number'],
  10: ['DATE', 'date'],
  11: ['TIME', 'string'],
  12: ['DATETIME', 'date'],
  13: ['YEAR', 'number'],
  15: ['VARCHAR', 'string'],
  16: ['BIT', 'number'],
  245: ['JSON', 'json'],
  246: ['NEWDECIMAL', 'number'],
  247: ['ENUM', 'string'],
  248: ['SET', 'string'],
  249: ['TINY_BLOB', 'string'],
  250: ['MEDIUM_BLOB', 'string'],
  251: ['LONG_BLOB', 'string'],
  252: ['BLOB', 'string'],
  253: ['VAR_STRING', 'string'],
  254: ['STRING', 'string'],
};

export function mysqlColumns(fields: readonly FieldPacket[]): ColumnInfo[] {
  return fields.map((field) => {
    // MariaDB's JSON is LONGTEXT with an extended format marker.
    if (field.extendedFormat === 'json') return { name: field.name, type: 'json' as const, sourceType: 'JSON' };
    const known = field.columnType === undefined ? undefined : COLUMN_TYPES[field.columnType];
    return known ? { name: field.name, type: known[1], sourceType: known[0] } : { name: field.name, type: 'unknown' as const };
  });
}
