import { UnknownVariableError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables } from '../types.js';

/** `{{ name }}`: the name is everything between the braces, trimmed. */
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

export interface PlaceholderMatch {
  name: string;
  start: number;
  end: number;
}

export function findPlaceholders(text: string): PlaceholderMatch[] {
  const found: PlaceholderMatch[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    found.push({ name: match[1]!, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

export function hasPlaceholder(text: string | null | undefined): boolean {
  return typeof text === 'string' && text.includes('{{') && findPlaceholders(text).length > 0;
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

/** The text form of a value where it is embedded in a larger string. */
export function textOf(variable: ResolvedVariable): string {
  return variable.value === null ? '' : String(variable.value);
}
