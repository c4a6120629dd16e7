import { InvalidVariableError, UnknownVariableError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables, ScalarValue } from '../types.js';
import { isListValue } from './convert.js';

export interface PlaceholderMatch {
  name: string;
  start: number;
  end: number;
}

const OPEN = '{{';

/**
 * The placeholder `{{ name }}` starting exactly at `start`, if there is one: no brace between the
 * delimiters, and a name that is not empty once trimmed.
 *
 * A hand-written scan rather than a regex: `\{\{\s*([^{}]+?)\s*\}\}` backtracks super-linearly on
 * `{{` followed by a long run of spaces with no closing braces (a saved query could stall the event
 * loop for minutes). This looks at each character after `start` at most once.
 */
export function placeholderAt(text: string, start: number): PlaceholderMatch | undefined {
  if (text.charCodeAt(start) !== 123 || text.charCodeAt(start + 1) !== 123) return undefined;
  for (let i = start + 2; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) return undefined; // '{'
    if (c === 125) {
      // '}'
      if (text.charCodeAt(i + 1) !== 125) return undefined;
      const name = text.slice(start + 2, i).trim();
      return name === '' ? undefined : { name, start, end: i + 2 };
    }
  }
  return undefined;
}

/** Every placeholder in `text`, left to right, in time linear in the text's length. */
export function findPlaceholders(text: string): PlaceholderMatch[] {
  const found: PlaceholderMatch[] = [];
  let from = text.indexOf(OPEN);
  while (from !== -1) {
    const match = placeholderAt(text, from);
    if (match) {
      found.push(match);
      from = text.indexOf(OPEN, match.end);
    } else {
      // A failed candidate holds no brace before the point where it failed, so the next `{{`
      // lies at or after that point: no character is scanned twice.
      from = text.indexOf(OPEN, from + 1);
    }
  }
  return found;
}

/** The single placeholder that makes up the whole text, if it is exactly one. */
export function exactPlaceholder(text: string): string | undefined {
  const found = findPlaceholders(text);
  const only = found[0];
  return found.length === 1 && only && only.start === 0 && only.end === text.length ? only.name : undefined;
}

/** A placeholder's variable; an unknown name (no binding, no value) is a 400 naming it. */
export function lookupVariable(variables: ResolvedVariables | undefined, name: string): ResolvedVariable {
  const variable = variables?.values.get(name);
  if (!variable) throw new UnknownVariableError(name);
  return variable;
}

/** Replaces every placeholder in `text` with `format(variable)`; literal text is kept as is. */
export function interpolate(
  text: string,
  variables: ResolvedVariables | undefined,
  format: (variable: ResolvedVariable) => string,
): string {
  const found = findPlaceholders(text);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const placeholder of found) {
    out += text.slice(at, placeholder.start) + format(lookupVariable(variables, placeholder.name));
    at = placeholder.end;
  }
  return out + text.slice(at);
}

/**
 * The text form of a value where it is embedded in a larger string ("" without a value, where
 * the caller keeps that rule). A list has no text form: it is a 400 naming the variable.
 */
export function textOf(variable: ResolvedVariable): string {
  const value = variable.value;
  if (isListValue(value)) throw new InvalidVariableError(variable.name, LIST_IN_TEXT);
  return value === null ? '' : String(value);
}

/** Why a list is refused inside text. */
export const LIST_IN_TEXT = 'is a list, and a list cannot be used inside a string';

/** The value where a target takes one scalar value; a list is a 400 naming the variable. */
export function scalarOf(variable: ResolvedVariable): ScalarValue | null {
  const value = variable.value;
  if (isListValue(value)) throw new InvalidVariableError(variable.name, 'is a list, and a list cannot be used here (it takes one value)');
  return value;
}

/**
 * Like `interpolate`, but `null` when any placeholder has no value: text built from a missing
 * value is itself missing, as `'a' || NULL` is NULL in SQL (never the text with a hole in it).
 */
export function interpolateOrNull(
  text: string,
  variables: ResolvedVariables | undefined,
  format: (variable: ResolvedVariable) => string,
): string | null {
  let missing = false;
  const filled = interpolate(text, variables, (variable) => {
    if (variable.value === null) {
      missing = true;
      return '';
    }
    return format(variable);
  });
  return missing ? null : filled;
}
