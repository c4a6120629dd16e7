import { parseBigInteger, parseDecimal } from '../values.js';

/**
 * BSON values as plain JSON-friendly values: ObjectId -> 24-char hex, Date -> ISO 8601 UTC,
 * Decimal128 and Long -> number (or exact string when too big), Binary -> base64 (UUIDs as text),
 * Timestamp -> ISO date, RegExp -> "/source/flags".
 */
export function normalizeBson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(normalizeBson);
  const bson = value as { _bsontype?: string; [key: string]: unknown };
  switch (bson._bsontype) {
    case 'ObjectId':
    case 'ObjectID':
      return (value as { toHexString(): string }).toHexString();
    case 'Decimal128':
      return parseDecimal(String(value));
    case 'Long':
      return parseBigInteger(String(value));
    case 'Double':
    case 'Int32':
      return (value as { valueOf(): number }).valueOf();
    case 'Binary': {
      const binary = value as { sub_type: number; toUUID?: () => { toString(): string }; toString(encoding: 'base64'): string };
      if (binary.sub_type === 4 && binary.toUUID) return binary.toUUID().toString();
      return binary.toString('base64');
    }
    case 'Timestamp': {
      const ts = value as { high?: number; t?: number };
      return new Date((ts.t ?? ts.high ?? 0) * 1000).toISOString();
    }
    case 'BSONRegExp':
      return `/${String(bson['pattern'])}/${String(bson['options'])}`;
    case 'Code':
      return String(bson['code']);
    case 'BSONSymbol':
      return String(bson['value']);
    case 'MinKey':
    case 'MaxKey':
      return null;
    case 'DBRef':
      return { $ref: bson['collection'], $id: normalizeBson(bson['oid']) };
    default:
      break;
  }
  if (value instanceof RegExp) return value.toString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = normalizeBson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

export type BsonTypeName = 'null' | 'array' | 'date' | 'objectId' | 'object' | 'string' | 'number' | 'boolean';

/** Field paths (dot notation) and the types seen in a sample of raw documents. */
export function inferFields(documents: readonly unknown[], maxDepth = 3): Map<string, Set<BsonTypeName>> {
  const fields = new Map<string, Set<BsonTypeName>>();
  const visit = (value: unknown, path: string, depth: number): void => {
    const type = bsonTypeName(value);
    if (path) {
      let types = fields.get(path);
      if (!types) fields.set(path, (types = new Set()));
      types.add(type);
    }
    if (type === 'object' && depth < maxDepth) {
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) visit(item, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  for (const document of documents) visit(document, '', 0);
  return fields;
}

function bsonTypeName(value: unknown): BsonTypeName {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (typeof value === 'object') {
    const kind = (value as { _bsontype?: string })._bsontype;
    if (kind === 'ObjectId' || kind === 'ObjectID') return 'objectId';
    if (kind === 'Decimal128' || kind === 'Long' || kind === 'Double' || kind === 'Int32') return 'number';
    if (kind) return 'string';
    return 'object';
  }
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}
