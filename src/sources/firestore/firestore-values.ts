import { parseBigInteger } from '../values.js';

/*
 * Firestore REST values (https://firebase.google.com/docs/firestore/reference/rest/v1/Value)
 * to plain JSON and back. Reading: integers as numbers (beyond 2^53 as exact strings), timestamps
 * as ISO 8601 UTC strings, references as their document path, bytes as base64, geo points as
 * {latitude, longitude}, maps and arrays recursively.
 */

export type FirestoreValue = Record<string, unknown>;

export interface FirestoreDocument {
  name: string;
  fields?: Record<string, FirestoreValue>;
  createTime?: string;
  updateTime?: string;
}

/** `projects/p/databases/d/documents/a/b` -> `a/b`. */
export function documentPath(name: string): string {
  const at = name.indexOf('/documents/');
  return at === -1 ? name : name.slice(at + '/documents/'.length);
}

function decodeValue(value: FirestoreValue | undefined): unknown {
  if (!value || typeof value !== 'object') return null;
  if ('nullValue' in value) return null;
  if ('booleanValue' in value) return Boolean(value['booleanValue']);
  if ('integerValue' in value) return parseBigInteger(String(value['integerValue']));
  if ('doubleValue' in value) {
    const d = value['doubleValue'];
    return typeof d === 'number' ? d : Number(d);
  }
  if ('timestampValue' in value) return timestampToIso(String(value['timestampValue']));
  if ('stringValue' in value) return String(value['stringValue']);
  if ('bytesValue' in value) return String(value['bytesValue']);
  if ('referenceValue' in value) return documentPath(String(value['referenceValue']));
  if ('geoPointValue' in value) {
    const g = value['geoPointValue'] as { latitude?: number; longitude?: number };
    return { latitude: g.latitude ?? 0, longitude: g.longitude ?? 0 };
  }
  if ('arrayValue' in value) {
    const values = ((value['arrayValue'] as { values?: FirestoreValue[] }).values ?? []) as FirestoreValue[];
    return values.map(decodeValue);
  }
  if ('mapValue' in value) return decodeFields((value['mapValue'] as { fields?: Record<string, FirestoreValue> }).fields);
  return null;
}

function decodeFields(fields: Record<string, FirestoreValue> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(fields ?? {})) {
    Object.defineProperty(out, key, { value: decodeValue(inner), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A document as a row: its fields, `_id` (the document id) and `_path`. */
export function documentRow(doc: FirestoreDocument): Record<string, unknown> {
  const path = documentPath(doc.name);
  return { _id: path.slice(path.lastIndexOf('/') + 1), _path: path, ...decodeFields(doc.fields) };
}

/** Nanosecond timestamps keep millisecond precision, as every other source's dates do. */
function timestampToIso(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}

/** A JS value as a Firestore value, for filters. */
export function encodeValue(value: unknown, asTimestamp = false): FirestoreValue {
  if (value === null || value === undefined) return { nullValue: null };
  if (typeof value === 'boolean') return { booleanValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { integerValue: String(value) } : { doubleValue: value };
  if (value instanceof Date) return { timestampValue: value.toISOString() };
  if (Array.isArray(value)) return { arrayValue: { values: value.map((v) => encodeValue(v, asTimestamp)) } };
  if (typeof value === 'string' && asTimestamp) return { timestampValue: new Date(Date.parse(value)).toISOString() };
  return { stringValue: String(value) };
}

/** The raw value at a dotted field path of a document, for query cursors. */
export function rawValueAt(doc: FirestoreDocument, fieldPath: string): FirestoreValue {
  let fields = doc.fields;
  const parts = splitFieldPath(fieldPath);
  for (let i = 0; i < parts.length; i += 1) {
    const value = fields?.[parts[i]!];
    if (!value) return { nullValue: null };
    if (i === parts.length - 1) return value;
    fields = (value['mapValue'] as { fields?: Record<string, FirestoreValue> } | undefined)?.fields;
  }
  return { nullValue: null };
}

/** `a.b` and `` a.`b.c` `` into segments. */
export function splitFieldPath(path: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < path.length; i += 1) {
    const c = path[i]!;
    if (c === '`') quoted = !quoted;
    else if (c === '.' && !quoted) {
      out.push(current);
      current = '';
    } else if (c === '\\' && quoted) current += path[++i] ?? '';
    else current += c;
  }
  out.push(current);
  return out;
}

/** Segments back into a field path, quoting segments that are not simple identifiers. */
export function joinFieldPath(segments: string[]): string {
  return segments.map((s) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? s : `\`${s.replace(/[`\\]/g, (m) => `\\${m}`)}\``)).join('.');
}
