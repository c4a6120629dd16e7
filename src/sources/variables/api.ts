import { InvalidQueryError, InvalidVariableError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables } from '../types.js';
import { isListValue } from './convert.js';
import { exactPlaceholder, findPlaceholders, interpolateOrNull, lookupVariable, textOf } from './placeholders.js';

const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Fills placeholders in an API route. Values are URL-encoded per component: in the path with
 * encodeURIComponent (a value can never add a segment, and a segment that a value turns into
 * "." or ".." is refused), in the query string per key and per value. Without a value: a query
 * parameter holding the variable is left out (as its value would be NULL), and a path segment
 * holding it is a 400 (a path cannot leave a segment out). A list variable that is the whole value
 * of a query parameter repeats the parameter once per value (`?c=US&c=DE`); elsewhere it is a 400.
 */
export function compileRoute(route: string, variables: ResolvedVariables | undefined): string {
  const hashAt = route.indexOf('#');
  const withoutHash = hashAt === -1 ? route : route.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const path = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : withoutHash.slice(queryAt + 1);
  const encode = (variable: ResolvedVariable): string => encodeURIComponent(textOf(variable));

  const segments = path.split('/').map((segment) => {
    const found = findPlaceholders(segment);
    if (found.length === 0) return segment;
    const filled = interpolateOrNull(segment, variables, encode);
    if (filled === null) {
      const missing = found.find((p) => lookupVariable(variables, p.name).value === null)!;
      throw new InvalidVariableError(missing.name, 'has no value, and a URL path cannot leave out a segment: give it a value or a default');
    }
    if (DOT_SEGMENT.test(filled)) {
      throw new InvalidVariableError(found[0]!.name, 'cannot make a path segment "." or ".."');
    }
    return filled;
  });
  let out = segments.join('/');
  if (query === undefined) return out;

  const pairs: string[] = [];
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? undefined : pair.slice(eq + 1);
    const key = interpolateOrNull(rawKey, variables, encode);
    if (key === null) continue;
    if (rawValue === undefined) {
      pairs.push(key);
      continue;
    }
    const only = exactPlaceholder(rawValue);
    const whole = only === undefined ? undefined : lookupVariable(variables, only);
    if (whole && isListValue(whole.value)) {
      for (const item of whole.value) pairs.push(`${key}=${encodeURIComponent(String(item))}`);
      continue;
    }
    const value = interpolateOrNull(rawValue, variables, encode);
    if (value !== null) pairs.push(`${key}=${value}`);
  }
  out += `?${pairs.join('&')}`;
  return out;
}

/**
 * Header names and values: placeholders filled as text; CR, LF and NUL are refused (no header
 * injection). Undefined (the header is not sent) when a placeholder in it has no value.
 */
export function compileHeader(name: string, value: string, variables: ResolvedVariables | undefined): [string, string] | undefined {
  const check = (variable: ResolvedVariable): string => {
    const text = textOf(variable);
    if (/[\r\n\0]/.test(text)) throw new InvalidVariableError(variable.name, 'cannot contain line breaks or NUL in a header');
    return text;
  };
  const rawName = interpolateOrNull(name, variables, check);
  const filledValue = interpolateOrNull(value, variables, check);
  if (rawName === null || filledValue === null) return undefined;
  const filledName = rawName.trim();
  if (!HEADER_NAME.test(filledName)) throw new InvalidQueryError(`"${filledName}" is not a valid header name`, 'headers');
  if (/[\r\n\0]/.test(filledValue)) throw new InvalidQueryError(`Header "${filledName}" contains a line break`, 'headers');
  return [filledName, filledValue];
}

/** Marks a bare `{{name}}` outside JSON strings so that the body parses as JSON first. */
const SENTINEL = '\u0000';

/**
 * Fills placeholders in a JSON body by substituting into the parsed JSON values, never into the
 * text: a string that is exactly one placeholder (or a bare placeholder outside strings) takes the
 * variable's typed value (a list a JSON array, no value `null`); a placeholder inside a longer
 * string is filled as text, and the string is `null` when one of them has no value. Keys are filled
 * as text; a key holding a variable without a value leaves its entry out. The result is serialized
 * again, so every value is JSON-escaped.
 */
export function compileJsonBody(body: string, variables: ResolvedVariables | undefined): string {
  if (findPlaceholders(body).length === 0) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(markBarePlaceholders(body));
  } catch {
    throw new InvalidQueryError('The request body must be valid JSON to use variables in it', 'body');
  }
  return JSON.stringify(fill(parsed, variables));
}

function markBarePlaceholders(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    if (c === '{' && text[i + 1] === '{') {
      const end = text.indexOf('}}', i);
      if (end !== -1) {
        const name = text.slice(i + 2, end).trim();
        out += JSON.stringify(`${SENTINEL}${name}${SENTINEL}`);
        i = end + 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

function typedValue(variable: ResolvedVariable): unknown {
  const value = variable.value;
  return isListValue(value) ? [...value] : value;
}

function fill(value: unknown, variables: ResolvedVariables | undefined): unknown {
  if (typeof value === 'string') {
    if (value.length > 2 && value.startsWith(SENTINEL) && value.endsWith(SENTINEL)) {
      return typedValue(lookupVariable(variables, value.slice(1, -1)));
    }
    const only = exactPlaceholder(value);
    if (only !== undefined) return typedValue(lookupVariable(variables, only));
    return interpolateOrNull(value, variables, textOf);
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, variables));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [rawKey, item] of Object.entries(value)) {
      const key = interpolateOrNull(rawKey, variables, textOf);
      if (key === null) continue;
      // defineProperty: a "__proto__" key stays a plain key.
      Object.defineProperty(out, key, {
        value: fill(item, variables),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
