import { readFileSync } from 'node:fs';
import { Type, type TNumberOptions, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ConfigError } from './error.js';
import { isSecret, Variables } from './variables.js';

export type Env = Record<string, string | undefined>;

/** Every variable of the schema read from `env`, checked and decoded; the first bad one throws ConfigError. */
export function readVariables(env: Env): Variables {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(Variables.properties) as [string, TSchema][]) {
    const found = readText(env, name, isSecret(schema));
    if (found !== undefined) values[name] = decodeText(found.from, schema, found.text);
    else if ('default' in schema) values[name] = Value.Decode(schema, schema.default);
  }
  return values as Variables;
}

/** `text` as the value `schema` describes, or a ConfigError naming `variable` (where the text came from). */
export function decodeText(variable: string, schema: TSchema, text: string): unknown {
  const value = fromText(schema, text);
  if (!Value.Check(schema, value)) throw new ConfigError(variable, problem(schema, text, value));
  return Value.Decode(schema, value);
}

/**
 * The variable's text, trimmed; blank counts as unset. A secret may come from the file its
 * `NAME_FILE` names instead (Docker and Kubernetes secrets), never from both.
 */
function readText(env: Env, name: string, secret: boolean): { text: string; from: string } | undefined {
  const text = env[name]?.trim() || undefined;
  const fileVariable = `${name}_FILE`;
  const file = secret ? env[fileVariable]?.trim() || undefined : undefined;
  if (file === undefined) return text === undefined ? undefined : { text, from: name };
  if (text !== undefined) throw new ConfigError(name, `is set and so is ${fileVariable}; set only one of them`);
  let content: string;
  try {
    content = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new ConfigError(fileVariable, `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  // An empty secret file is a mistake in the deployment, never a request for a generated key.
  if (content === '') throw new ConfigError(fileVariable, `${file} is empty`);
  return { text: content, from: fileVariable };
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
