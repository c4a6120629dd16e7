import { InvalidQueryError, InvalidVariableError } from '../errors.js';
import type { ResolvedVariables, ScalarValue } from '../types.js';
import { isListValue } from '../variables/convert.js';
import { exactPlaceholder, findPlaceholders, interpolate, lookupVariable, scalarOf, textOf } from '../variables/placeholders.js';
import { encodeValue, joinFieldPath, splitFieldPath, type FirestoreValue } from './firestore-values.js';

/*
 * Builds Firestore structured-query parts from a data request: the collection path, the
 * conditions (field/operator/value, values typed and variables bound as values, never pasted into
 * text) and the ordering.
 */

export interface FirestoreCondition {
  field?: unknown;
  operator?: unknown;
  value?: unknown;
  values?: unknown;
  /** Which collection the condition filters: empty or the main collection, or the sub-collection. */
  collection?: unknown;
  /** Forces the value's type: string, number, boolean, date (timestamp) or null. */
  type?: unknown;
}

const FIELD_OPS: Record<string, string> = {
  '==': 'EQUAL',
  '!=': 'NOT_EQUAL',
  '>': 'GREATER_THAN',
  '>=': 'GREATER_THAN_OR_EQUAL',
  '<': 'LESS_THAN',
  '<=': 'LESS_THAN_OR_EQUAL',
  'array-contains': 'ARRAY_CONTAINS',
  'array-contains-any': 'ARRAY_CONTAINS_ANY',
  in: 'IN',
  'not-in': 'NOT_IN',
};
const LIST_OPS = new Set(['array-contains-any', 'in', 'not-in']);
const UNARY_OPS: Record<string, string> = { isNull: 'IS_NULL', isNotNull: 'IS_NOT_NULL' };

/**
 * A collection path (`orders`, `users/{{uid}}/orders`): placeholders filled per segment; a value
 * can never add a segment or make one "." or "..". Odd segment counts are collections.
 */
export function compileCollectionPath(raw: string, variables: ResolvedVariables | undefined, field = 'query'): string[] {
  const path = raw.trim().replace(/^\/+|\/+$/g, '');
  if (!path) throw new InvalidQueryError('The Firestore collection path is empty; set it in query (or route)', field);
  const segments = path.split('/').map((segment) => {
    const found = findPlaceholders(segment);
    if (found.length === 0) return segment;
    const filled = interpolate(segment, variables, textOf);
    if (filled.includes('/') || filled === '.' || filled === '..' || filled === '') {
      throw new InvalidVariableError(found[0]!.name, 'cannot add, remove or empty a segment of a Firestore path');
    }
    return filled;
  });
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw new InvalidQueryError(`"${path}" has an empty, "." or ".." segment`, field);
  if (segments.length % 2 === 0) throw new InvalidQueryError(`"${path}" names a document, not a collection (a collection path has an odd number of segments)`, field);
  return segments;
}

/** `root[].customer.name` (the chart field notation) or `customer.name` -> a Firestore field path. */
export function fieldPathOf(raw: unknown, where: string): string {
  if (typeof raw !== 'string' || !raw.trim()) throw new InvalidQueryError('A condition needs a field', where);
  const path = raw.trim().replace(/^root\[\]\./, '').replace(/^root\./, '');
  if (path === '_id' || path === '__name__') return '__name__';
  return joinFieldPath(splitFieldPath(path));
}

function typedValue(raw: unknown, type: unknown, variables: ResolvedVariables | undefined): { value: unknown; timestamp: boolean } {
  if (typeof raw === 'string') {
    const only = exactPlaceholder(raw);
    if (only !== undefined) {
      const variable = lookupVariable(variables, only);
      if (type === undefined || type === null || type === '') return { value: variable.value, timestamp: variable.type === 'date' || variable.type === 'date[]' };
      const value = scalarOf(variable);
      raw = value === null ? null : String(value);
    } else if (findPlaceholders(raw).length > 0) {
      raw = interpolate(raw, variables, textOf);
    }
  }
  switch (type) {
    case 'string':
      return { value: raw === null || raw === undefined ? '' : String(raw), timestamp: false };
    case 'number': {
      const n = Number(raw);
      if (raw === null || raw === '' || !Number.isFinite(n)) throw new InvalidQueryError(`"${String(raw)}" is not a number`, 'conditions');
      return { value: n, timestamp: false };
    }
    case 'boolean':
      if (raw === true || raw === 'true') return { value: true, timestamp: false };
      if (raw === false || raw === 'false') return { value: false, timestamp: false };
      throw new InvalidQueryError(`"${String(raw)}" is not true or false`, 'conditions');
    case 'date':
    case 'timestamp': {
      const ms = typeof raw === 'number' ? raw : Date.parse(String(raw));
      if (!Number.isFinite(ms)) throw new InvalidQueryError(`"${String(raw)}" is not a date`, 'conditions');
      return { value: new Date(ms), timestamp: true };
    }
    case 'null':
      return { value: null, timestamp: false };
  }
  // Inferred as the reference client does: booleans and numbers from their text.
  if (raw === 'true' || raw === 'false') return { value: raw === 'true', timestamp: false };
  if (raw === 'null') return { value: null, timestamp: false };
  if (typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw) && raw.length < 16) return { value: Number(raw), timestamp: false };
  return { value: raw ?? null, timestamp: false };
}

/**
 * A list variable written alone as a list operator's value (`"value": "{{ids}}"`): its values, and
 * whether they are dates (sent as timestamps). Undefined for anything else.
 */
function listVariable(raw: unknown, variables: ResolvedVariables | undefined): { items: ScalarValue[]; dates: boolean } | undefined {
  const only = typeof raw === 'string' ? exactPlaceholder(raw) : undefined;
  if (only === undefined) return undefined;
  const variable = lookupVariable(variables, only);
  const value = variable.value;
  return isListValue(value) ? { items: [...value], dates: variable.type === 'date[]' } : undefined;
}

/** One condition as a Firestore filter. */
function conditionFilter(
  condition: FirestoreCondition,
  index: number,
  variables: ResolvedVariables | undefined,
  documentName: ((id: string) => string) | undefined,
): Record<string, unknown> {
  const where = `conditions.${index}`;
  let field = fieldPathOf(condition.field, `${where}.field`);
  let type = condition.type;
  // `createdAt._seconds` (how a Timestamp reads in JSON) filters the timestamp itself.
  const seconds = /\._seconds$/.exec(field);
  if (seconds) {
    field = field.slice(0, seconds.index);
    type = 'seconds';
  }
  const operator = String(condition.operator ?? '');
  const unary = UNARY_OPS[operator];
  if (unary) return { unaryFilter: { op: unary, field: { fieldPath: field } } };
  const op = FIELD_OPS[operator];
  if (!op) throw new InvalidQueryError(`Operator "${operator}" is not one of ${[...Object.keys(FIELD_OPS), ...Object.keys(UNARY_OPS)].join(', ')}`, `${where}.operator`);

  const convert = (raw: unknown): FirestoreValue => {
    if (field === '__name__') {
      // The document id compares as a reference to the document.
      if (!documentName) throw new InvalidQueryError('_id conditions apply to the main collection only', `${where}.field`);
      const typed = typedValue(raw, 'string', variables);
      const id = String(typed.value);
      if (!id || id.includes('/')) throw new InvalidQueryError(`"${id}" is not a document id`, `${where}.value`);
      return { referenceValue: documentName(id) };
    }
    if (type === 'seconds') {
      const secondsValue = Number(typeof raw === 'string' && exactPlaceholder(raw) ? scalarOf(lookupVariable(variables, exactPlaceholder(raw)!)) : raw);
      if (!Number.isFinite(secondsValue)) throw new InvalidQueryError(`"${String(raw)}" is not a number of seconds`, `${where}.value`);
      return encodeValue(new Date(secondsValue * 1000));
    }
    const typed = typedValue(raw, type, variables);
    return encodeValue(typed.value, typed.timestamp);
  };

  if (LIST_OPS.has(operator)) {
    const listed = Array.isArray(condition.values) ? undefined : listVariable(condition.value, variables);
    if (listed) {
      // A list variable's values are already typed: encoded as they are, unless the condition names a type.
      const values = listed.items.map((item) => (type || field === '__name__' ? convert(item) : encodeValue(item, listed.dates)));
      return { fieldFilter: { field: { fieldPath: field }, op, value: { arrayValue: { values } } } };
    }
    const list = Array.isArray(condition.values) ? condition.values : Array.isArray(condition.value) ? condition.value : [condition.value];
    if (list.length === 0) throw new InvalidQueryError(`Operator "${operator}" needs a list of values`, `${where}.values`);
    return { fieldFilter: { field: { fieldPath: field }, op, value: { arrayValue: { values: list.map(convert) } } } };
  }
  const value = convert(condition.value);
  // Firestore compares null only through unary filters.
  if ('nullValue' in value && (operator === '==' || operator === '!=')) {
    return { unaryFilter: { op: operator === '==' ? 'IS_NULL' : 'IS_NOT_NULL', field: { fieldPath: field } } };
  }
  return { fieldFilter: { field: { fieldPath: field }, op, value } };
}

/** The `where` of a structured query for the conditions that apply to the collection known by `names`. */
export function buildWhere(
  conditions: unknown,
  names: readonly string[],
  isMain: boolean,
  variables: ResolvedVariables | undefined,
  documentName?: (id: string) => string,
): Record<string, unknown> | undefined {
  if (conditions !== undefined && conditions !== null && !Array.isArray(conditions)) throw new InvalidQueryError('conditions must be an array', 'conditions');
  const filters: Record<string, unknown>[] = [];
  (conditions as FirestoreCondition[] | null | undefined)?.forEach((condition, index) => {
    if (!condition || typeof condition !== 'object') throw new InvalidQueryError('A condition must be an object', `conditions.${index}`);
    const target = typeof condition.collection === 'string' ? condition.collection.trim() : '';
    const applies = (isMain && target === '') || names.includes(target);
    if (applies) filters.push(conditionFilter(condition, index, variables, documentName));
  });
  if (filters.length === 0) return undefined;
  if (filters.length === 1) return filters[0];
  return { compositeFilter: { op: 'AND', filters } };
}

/** A configuration value that may be one placeholder (typed) or text with placeholders. */
export function configText(raw: unknown, variables: ResolvedVariables | undefined): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') return String(raw);
  const filled = interpolate(raw, variables, textOf).trim();
  return filled === '' ? undefined : filled;
}

export function configLimit(raw: unknown, variables: ResolvedVariables | undefined, field: string): number | undefined {
  const text = configText(raw, variables);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new InvalidQueryError(`${field} must be a whole number, got "${text}"`, `configuration.${field}`);
  return n === 0 ? undefined : n;
}
