import type { ListVariableType, ScalarValue, ScalarVariableType, VariableType, VariableValue } from '../types.js';

/*
 * How a raw value (JSON from a request body, text from a URL or a stored default) becomes a value
 * of a binding's type. Every target (SQL, MongoDB, HTTP, …) receives only what this accepted.
 */

const ELEMENT_TYPE: Readonly<Record<ListVariableType, ScalarVariableType>> = {
  'string[]': 'string',
  'number[]': 'number',
  'boolean[]': 'boolean',
  'date[]': 'date',
};

/** Every binding type: the scalars, then a list of each. */
export const VARIABLE_TYPES: readonly VariableType[] = ['string', 'number', 'boolean', 'date', 'string[]', 'number[]', 'boolean[]', 'date[]'];

/** Most values one list variable may hold: each becomes a bound parameter (MySQL: one `?` each). */
export const MAX_LIST_LENGTH = 1000;

export type Conversion = { ok: true; value: ScalarValue | ScalarValue[] } | { ok: false; problem: string };
type ScalarConversion = { ok: true; value: ScalarValue } | { ok: false; problem: string };

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const HAS_ZONE = /([zZ]|[+-]\d{2}(:?\d{2})?)$/;
const SPACE = /\s/;

export function isVariableType(type: unknown): type is VariableType {
  return typeof type === 'string' && (VARIABLE_TYPES as readonly string[]).includes(type);
}

export function isListType(type: VariableType): type is ListVariableType {
  return Object.hasOwn(ELEMENT_TYPE, type);
}

/** True for a list variable's value (`Array.isArray` does not narrow a readonly array). */
export function isListValue(value: VariableValue): value is readonly ScalarValue[] {
  return Array.isArray(value);
}

/** The type of each value of a list type (`number` for `number[]`). */
export function elementTypeOf(type: ListVariableType): ScalarVariableType {
  return ELEMENT_TYPE[type];
}

/**
 * Converts a raw value to `type`. A list type takes a JSON array, or a string: one that starts
 * with `[` is read as a JSON array, any other is comma-separated values (see `splitList`). A single
 * value given for a list is a list of one. Each element is converted by the element type.
 */
export function convertValue(type: VariableType, raw: unknown): Conversion {
  if (!isListType(type)) return convertScalar(type, raw);
  const element = elementTypeOf(type);
  let items: unknown[];
  if (Array.isArray(raw)) {
    items = raw;
  } else if (typeof raw === 'string' && raw.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { ok: false, problem: 'must be a list: a JSON array, or values separated by commas' };
    }
    if (!Array.isArray(parsed)) return { ok: false, problem: 'must be a list: a JSON array, or values separated by commas' };
    items = parsed;
  } else if (typeof raw === 'string') {
    items = splitList(raw);
  } else {
    items = [raw];
  }
  if (items.length > MAX_LIST_LENGTH) return { ok: false, problem: `has ${items.length} values; a list holds at most ${MAX_LIST_LENGTH}` };
  const values: ScalarValue[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === null || item === undefined) return { ok: false, problem: `has no value at item ${i + 1} (a list cannot hold null)` };
    const converted = convertScalar(element, item);
    if (!converted.ok) return { ok: false, problem: `item ${i + 1} ${converted.problem}` };
    values.push(converted.value);
  }
  return { ok: true, value: values };
}

/**
 * Comma-separated values, as a URL carries a list: `US,DE`. Spaces around each value are
 * dropped. A backslash makes the next character plain text: `\,` is a comma inside a value,
 * `\\` a backslash, `\ ` a space that is kept; a first value starting with `[` is written `\[`
 * (else the whole text is read as a JSON array). One pass over the text.
 */
export function splitList(text: string): string[] {
  const items: string[] = [];
  let current = '';
  // Length of `current` up to its last character that is not trailing white space to drop.
  let kept = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      current += text[++i]!;
      kept = current.length;
    } else if (c === ',') {
      items.push(current.slice(0, kept));
      current = '';
      kept = 0;
    } else if (SPACE.test(c)) {
      // Leading white space is dropped; inner white space is kept once a later character is.
      if (current.length > 0) current += c;
    } else {
      current += c;
      kept = current.length;
    }
  }
  items.push(current.slice(0, kept));
  return items;
}

function convertScalar(type: ScalarVariableType, raw: unknown): ScalarConversion {
  switch (type) {
    case 'string':
      if (typeof raw === 'string') return { ok: true, value: raw };
      if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: String(raw) };
      if (typeof raw === 'boolean' || typeof raw === 'bigint') return { ok: true, value: String(raw) };
      if (raw instanceof Date && !Number.isNaN(raw.getTime())) return { ok: true, value: raw.toISOString() };
      return { ok: false, problem: 'must be a string' };
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: raw };
      if (typeof raw === 'string' && NUMERIC.test(raw.trim())) return { ok: true, value: Number(raw.trim()) };
      return { ok: false, problem: 'must be a number' };
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const text = typeof raw === 'string' ? raw.trim().toLowerCase() : typeof raw === 'number' ? String(raw) : '';
      if (text === 'true' || text === '1') return { ok: true, value: true };
      if (text === 'false' || text === '0') return { ok: true, value: false };
      return { ok: false, problem: 'must be a boolean (true, false, 1 or 0)' };
    }
    case 'date': {
      const date = convertDate(raw);
      return date === undefined ? { ok: false, problem: 'must be a date (YYYY-MM-DD or an ISO 8601 date-time)' } : { ok: true, value: date };
    }
  }
}

/** `YYYY-MM-DD` as given (a real calendar day), or a date-time as an ISO 8601 UTC instant. */
function convertDate(raw: unknown): string | undefined {
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw.toISOString();
  if (typeof raw === 'number' && Number.isFinite(raw)) {
    const date = new Date(raw);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (DATE_ONLY.test(text)) {
    // Round-trip through UTC to reject impossible calendar dates such as 2025-02-30.
    const date = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? undefined : text;
  }
  if (!DATE_TIME.test(text)) return undefined;
  // A date-time without a zone is read as UTC, never as the server's local time.
  const zoned = HAS_ZONE.test(text) ? text : `${text}Z`;
  const date = new Date(zoned.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
