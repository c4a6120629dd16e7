import { Type, type TNumberOptions, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ConfigError } from './error.js';
import { Variables } from './variables.js';

export type Env = Record<string, string | undefined>;

/**
 * Every variable of the schema read from `env` (trimmed; blank counts as unset), checked and
 * decoded; the first bad one throws ConfigError.
 */
export function readVariables(env: Env): Variables {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(Variables.properties) as [string, TSchema][]) {
    const text = env[name]?.trim() || undefined;
    if (text !== undefined) values[name] = decodeText(name, schema, text);
    else if ('default' in schema) values[name] = Value.Decode(schema, schema.default);
  }
  return values as Variables;
}

/** `text` as the value `schema` describes, or a ConfigError naming `variable`. */
export function decodeText(variable: string, schema: TSchema, text: string): unknown {
  const value = fromText(schema, text);
  if (!Value.Check(schema, value)) throw new ConfigError(variable, problem(schema, text, value));
  return Value.Decode(schema, value);
}

/**
 * Integers and booleans from their text, strictly (digits only; true, false, 1 or 0), so that the
 * schema's check refuses anything else; every other type is checked as text.
 */
function fromText(schema: TSchema, text: string): unknown {
  if (Type.IsInteger(schema)) return /^\d+$/.test(text) ? Number(text) : text;
  if (Type.IsBoolean(schema)) {
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
  }
  return text;
}

function problem(schema: TSchema, text: string, value: unknown): string {
  const { minimum, maximum } = schema as TNumberOptions;
  if (Type.IsInteger(schema)) return `must be an integer between ${minimum} and ${maximum}, got "${text}"`;
  if (Type.IsBoolean(schema)) return `must be true, false, 1 or 0, got "${text}"`;
  if (Type.IsEnum(schema)) return `must be one of ${schema.enum.join(', ')}, got "${text}"`;
  // A string type: its refinement says what is wrong.
  return Value.Errors(schema, value)[0]!.message;
}
