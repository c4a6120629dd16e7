import { ObjectId } from 'mongodb';
import { InvalidVariableError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables } from '../types.js';
import { isListValue } from './convert.js';
import { interpolate, interpolateOrNull, lookupVariable, textOf } from './placeholders.js';

/*
 * A parsed MongoDB query keeps its placeholders as these markers, inside otherwise plain values.
 * Binding replaces each marker with a typed value, so a value can never change the query's shape.
 */

/** A string literal that is exactly `{{name}}`: becomes the variable's typed value. */
export class PlaceholderValue {
  constructor(readonly name: string) {}
}

/** A string literal with placeholders inside more text: becomes a string. */
export class TemplateString {
  constructor(readonly text: string) {}
}

/** A regex literal with placeholders: values are regex-escaped, so they match literally. */
export class TemplateRegExp {
  constructor(
    readonly source: string,
    readonly flags: string,
  ) {}
}

/** `ObjectId({{id}})`-style call whose argument is only known at bind time. */
export class ObjectIdTemplate {
  constructor(readonly arg: PlaceholderValue | TemplateString) {}
}

/** `new Date()`, `new Date({{d}})`, `ISODate('{{d}}')`: evaluated at bind time. */
export class DateTemplate {
  constructor(readonly arg: PlaceholderValue | TemplateString | string | number | undefined) {}
}

/** A lone placeholder's value: null without a value, dates as Date, a list as an array (of Dates for `date[]`). */
function typed(variable: ResolvedVariable): unknown {
  const value = variable.value;
  if (value === null) return null;
  if (isListValue(value)) return variable.type === 'date[]' ? value.map((item) => toDate(variable.name, item)) : [...value];
  if (variable.type === 'date') return toDate(variable.name, value);
  return value;
}

function toDate(name: string, value: unknown): Date {
  const text = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const date = typeof text === 'string' || typeof text === 'number' ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new InvalidVariableError(name, 'is not a valid date');
  return date;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Replaces every marker in a parsed value with its bound value. */
export function bindMongoValue(value: unknown, variables: ResolvedVariables | undefined): unknown {
  if (value instanceof PlaceholderValue) return typed(lookupVariable(variables, value.name));
  // Text holding a variable without a value is null, as the variable alone would be.
  if (value instanceof TemplateString) return interpolateOrNull(value.text, variables, textOf);
  if (value instanceof TemplateRegExp) {
    // A pattern cannot be null: a variable without a value adds nothing to it.
    const source = interpolate(value.source, variables, (variable) => escapeRegExp(textOf(variable)));
    return new RegExp(source, value.flags);
  }
  if (value instanceof ObjectIdTemplate) {
    const bound = bindMongoValue(value.arg, variables);
    if (bound === null) return null;
    const name = value.arg instanceof PlaceholderValue ? value.arg.name : 'ObjectId';
    if (typeof bound !== 'string' || !/^[0-9a-fA-F]{24}$/.test(bound)) {
      throw new InvalidVariableError(name, 'is not a valid ObjectId (24 hexadecimal characters)');
    }
    return new ObjectId(bound);
  }
  if (value instanceof DateTemplate) {
    if (value.arg === undefined) return new Date();
    const bound = typeof value.arg === 'object' ? bindMongoValue(value.arg, variables) : value.arg;
    if (bound === null) return null;
    if (bound instanceof Date) return bound;
    const name = value.arg instanceof PlaceholderValue ? value.arg.name : 'Date';
    return toDate(name, bound);
  }
  if (Array.isArray(value)) return value.map((item) => bindMongoValue(item, variables));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: bindMongoValue(item, variables), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
