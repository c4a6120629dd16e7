import type { ServerResponse } from 'node:http';
import { googleError, sendJson, type FakeGoogle, type Recorded } from './google-fakes.js';

/*
 * Cloud Firestore v1 REST, as documented (https://firebase.google.com/docs/firestore/reference/rest):
 * `POST /v1/{parent}:runQuery` with a StructuredQuery (from with allDescendants, where with field,
 * unary and composite filters, orderBy, startAt cursors, limit) answering a JSON array of
 * `{document, readTime}`, and `POST /v1/{parent}:listCollectionIds` with pageSize/pageToken.
 * Documents missing an orderBy or filter field are left out, as Firestore does; values compare in
 * Firestore's type order.
 */

type Value = Record<string, unknown>;
type Fields = Record<string, Value>;

export class Ref {
  constructor(readonly path: string) {}
}

/** Plain JS -> Firestore fields (Date -> timestampValue, Ref -> referenceValue). */
function toFields(doc: Record<string, unknown>, root: string): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(doc)) out[k] = toValue(v, root);
  return out;
}

function toValue(v: unknown, root: string): Value {
  if (v === null) return { nullValue: null };
  if (typeof v === 'boolean') return { booleanValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { integerValue: String(v) } : { doubleValue: v };
  if (typeof v === 'string') return { stringValue: v };
  if (v instanceof Date) return { timestampValue: v.toISOString().replace('.000Z', '.123456Z') };
  if (v instanceof Ref) return { referenceValue: `${root}/${v.path}` };
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => toValue(x, root)) } };
  return { mapValue: { fields: toFields(v as Record<string, unknown>, root) } };
}

const TYPE_ORDER = ['nullValue', 'booleanValue', 'number', 'timestampValue', 'stringValue', 'bytesValue', 'referenceValue', 'geoPointValue', 'arrayValue', 'mapValue'];

function typeRank(v: Value): number {
  const kind = Object.keys(v)[0] ?? 'nullValue';
  return TYPE_ORDER.indexOf(kind === 'integerValue' || kind === 'doubleValue' ? 'number' : kind);
}

function scalar(v: Value): unknown {
  if ('integerValue' in v) return Number(v['integerValue']);
  if ('doubleValue' in v) return Number(v['doubleValue']);
  if ('timestampValue' in v) return Date.parse(String(v['timestampValue']));
  return Object.values(v)[0];
}

function compare(a: Value, b: Value): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  const x = scalar(a);
  const y = scalar(b);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  if (typeof x === 'boolean') return Number(x) - Number(y);
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  return JSON.stringify(x) < JSON.stringify(y) ? -1 : JSON.stringify(x) > JSON.stringify(y) ? 1 : 0;
}

function equal(a: Value, b: Value): boolean {
  return compare(a, b) === 0;
}

function splitPath(path: string): string[] {
  return path.split('.').map((p) => p.replace(/^`|`$/g, ''));
}

interface Doc {
  name: string;
  fields: Fields;
}

function fieldOf(doc: Doc, fieldPath: string): Value | undefined {
  if (fieldPath === '__name__') return { referenceValue: doc.name };
  let fields: Fields | undefined = doc.fields;
  const parts = splitPath(fieldPath);
  for (let i = 0; i < parts.length; i += 1) {
    const v: Value | undefined = fields?.[parts[i]!];
    if (!v) return undefined;
    if (i === parts.length - 1) return v;
    fields = (v['mapValue'] as { fields?: Fields } | undefined)?.fields;
  }
  return undefined;
}

function matches(doc: Doc, filter: Record<string, any>): boolean {
  if (filter['compositeFilter']) {
    const { op, filters } = filter['compositeFilter'];
    if (op !== 'AND') throw new Error(`composite op ${op}`);
    return (filters as Record<string, any>[]).every((f) => matches(doc, f));
  }
  if (filter['unaryFilter']) {
    const { op, field } = filter['unaryFilter'];
    const v = fieldOf(doc, field.fieldPath);
    if (op === 'IS_NULL') return v !== undefined && 'nullValue' in v;
    if (op === 'IS_NOT_NULL') return v !== undefined && !('nullValue' in v);
    throw new Error(`unary op ${op}`);
  }
  const { field, op, value } = filter['fieldFilter'];
  const v = fieldOf(doc, field.fieldPath);
  if (v === undefined) return false;
  const list = ((value as Value)['arrayValue'] as { values?: Value[] } | undefined)?.values ?? [];
  const sameType = typeRank(v) === typeRank(value as Value);
  switch (op) {
    case 'EQUAL':
      return equal(v, value);
    case 'NOT_EQUAL':
      return !('nullValue' in v) && !equal(v, value);
    case 'LESS_THAN':
      return sameType && compare(v, value) < 0;
    case 'LESS_THAN_OR_EQUAL':
      return sameType && compare(v, value) <= 0;
    case 'GREATER_THAN':
      return sameType && compare(v, value) > 0;
    case 'GREATER_THAN_OR_EQUAL':
      return sameType && compare(v, value) >= 0;
    case 'IN':
      return list.some((x) => equal(v, x));
    case 'NOT_IN':
      return !('nullValue' in v) && !list.some((x) => equal(v, x));
    case 'ARRAY_CONTAINS':
      return (((v['arrayValue'] as { values?: Value[] } | undefined)?.values ?? []) as Value[]).some((x) => equal(x, value));
    case 'ARRAY_CONTAINS_ANY':
      return (((v['arrayValue'] as { values?: Value[] } | undefined)?.values ?? []) as Value[]).some((x) => list.some((y) => equal(x, y)));
    default:
      throw new Error(`field op ${op}`);
  }
}

export interface FirestoreFake {
  root: string;
  /** Adds documents: `{'orders/o1': {...}}`. */
  seed(docs: Record<string, Record<string, unknown>>): void;
  /** Structured queries received, in order. */
  queries: Record<string, any>[];
}

export function installFirestore(google: FakeGoogle, projectId: string): FirestoreFake {
  const root = `projects/${projectId}/databases/(default)/documents`;
  const docs = new Map<string, Doc>();
  const queries: Record<string, any>[] = [];

  const handler = (req: Recorded, res: ServerResponse, scopes: string[]): void => {
    if (!scopes.includes('https://www.googleapis.com/auth/datastore') && !scopes.includes('https://www.googleapis.com/auth/cloud-platform')) {
      return googleError(res, 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    }
    if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json') return googleError(res, 400, 'INVALID_ARGUMENT', 'POST JSON');
    const path = decodeURIComponent(req.path.slice('/v1/'.length));
    const colon = path.lastIndexOf(':');
    const parent = path.slice(0, colon);
    const method = path.slice(colon + 1);
    if (!parent.startsWith(root)) return googleError(res, 404, 'NOT_FOUND', `The database ${parent.split('/documents')[0]} does not exist for project ${projectId}`);
    let body: Record<string, any>;
    try {
      body = JSON.parse(req.body) as Record<string, any>;
    } catch {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    if (method === 'listCollectionIds') return listCollectionIds(parent, body, res);
    if (method === 'runQuery') return runQuery(parent, body, res);
    return googleError(res, 404, 'NOT_FOUND', `Method ${method} not found`);
  };

  const listCollectionIds = (parent: string, body: Record<string, any>, res: ServerResponse): void => {
    const prefix = parent === root ? `${root}/` : `${parent}/`;
    const ids = new Set<string>();
    for (const name of docs.keys()) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length).split('/');
      if (rest.length >= 2) ids.add(rest[0]!);
    }
    const all = [...ids].sort();
    // The API may return fewer than pageSize ids per page; this server returns at most 2.
    const start = body['pageToken'] ? Number(Buffer.from(String(body['pageToken']), 'base64').toString()) : 0;
    const size = Math.min(Number(body['pageSize'] ?? 2), 2);
    const page = all.slice(start, start + size);
    const next = start + size < all.length ? Buffer.from(String(start + size)).toString('base64') : undefined;
    sendJson(res, 200, { collectionIds: page, ...(next ? { nextPageToken: next } : {}) });
  };

  const runQuery = (parent: string, body: Record<string, any>, res: ServerResponse): void => {
    const q = body['structuredQuery'] as Record<string, any> | undefined;
    if (!q || !Array.isArray(q['from']) || q['from'].length !== 1) return googleError(res, 400, 'INVALID_ARGUMENT', 'structuredQuery.from must name one collection');
    queries.push(q);
    const { collectionId, allDescendants } = q['from'][0];
    let found = [...docs.values()].filter((doc) => {
      if (!doc.name.startsWith(`${parent}/`)) return false;
      const rest = doc.name.slice(parent.length + 1).split('/');
      if (allDescendants) return rest.length >= 2 && rest[rest.length - 2] === collectionId;
      return rest.length === 2 && rest[0] === collectionId;
    });
    try {
      if (q['where']) found = found.filter((doc) => matches(doc, q['where']));
    } catch (error) {
      return googleError(res, 400, 'INVALID_ARGUMENT', String((error as Error).message));
    }
    const orderBy = (q['orderBy'] ?? []) as { field: { fieldPath: string }; direction?: string }[];
    found = found.filter((doc) => orderBy.every((o) => fieldOf(doc, o.field.fieldPath) !== undefined));
    const cmp = (a: Doc, b: Doc): number => {
      for (const o of [...orderBy, { field: { fieldPath: '__name__' }, direction: orderBy.at(-1)?.direction ?? 'ASCENDING' }]) {
        const c = compare(fieldOf(a, o.field.fieldPath)!, fieldOf(b, o.field.fieldPath)!);
        if (c !== 0) return o.direction === 'DESCENDING' ? -c : c;
      }
      return 0;
    };
    found.sort(cmp);
    if (q['startAt']) {
      const { values, before } = q['startAt'] as { values: Value[]; before?: boolean };
      if (values.length > orderBy.length) return googleError(res, 400, 'INVALID_ARGUMENT', 'Too many cursor values specified. The specified order by clause has fewer fields.');
      const position = (doc: Doc): number => {
        for (let i = 0; i < values.length; i += 1) {
          const c = compare(fieldOf(doc, orderBy[i]!.field.fieldPath)!, values[i]!);
          if (c !== 0) return orderBy[i]!.direction === 'DESCENDING' ? -c : c;
        }
        return 0;
      };
      found = found.filter((doc) => (before ? position(doc) >= 0 : position(doc) > 0));
    }
    if (q['offset']) found = found.slice(Number(q['offset']));
    if (q['limit'] !== undefined) found = found.slice(0, Number(typeof q['limit'] === 'object' ? q['limit'].value : q['limit']));
    const readTime = new Date().toISOString();
    const out = found.map((doc) => ({ document: { name: doc.name, fields: doc.fields, createTime: readTime, updateTime: readTime }, readTime }));
    sendJson(res, 200, out.length > 0 ? out : [{ readTime }]);
  };

  google.handle('/v1/projects/', handler);
  return {
    root,
    queries,
    seed(input) {
      for (const [path, doc] of Object.entries(input)) docs.set(`${root}/${path}`, { name: `${root}/${path}`, fields: toFields(doc, root) });
    },
  };
}
