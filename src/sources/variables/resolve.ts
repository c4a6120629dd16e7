import { InvalidVariableError, VariableRequiredError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables, VariableBinding, VariableType, VariableValue } from '../types.js';
import { convertValue, isVariableType } from './convert.js';

export interface VariableInputs {
  /** The data request's bindings (name, type, default_value, required). */
  bindings?: readonly VariableBinding[] | null;
  /** Values given for this run (request body, share policy params, URL params). Highest precedence. */
  runtime?: Readonly<Record<string, unknown>> | null;
  /** Values saved on the chart dataset config (`configuration.variables`). */
  configured?: Readonly<Record<string, unknown>> | ReadonlyArray<{ name: string; value: unknown }> | null;
}

export const NO_VARIABLES: ResolvedVariables = Object.freeze({ values: new Map<string, ResolvedVariable>() });

/** Null, undefined, "" and an empty list mean "no value here": the next source of values is consulted. */
function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function configuredMap(configured: VariableInputs['configured']): Map<string, unknown> {
  const map = new Map<string, unknown>();
  if (!configured) return map;
  if (Array.isArray(configured)) {
    for (const entry of configured as ReadonlyArray<{ name: string; value: unknown }>) {
      if (entry && typeof entry.name === 'string') map.set(entry.name, entry.value);
    }
  } else {
    for (const [name, value] of Object.entries(configured)) map.set(name, value);
  }
  return map;
}

/**
 * Applies the precedence rules (runtime value > chart-config value > binding default_value),
 * checks `required` bindings and converts every value to its binding's type (a list type to a
 * list of its element type). A value that converts to an empty list counts as no value, like "".
 * Values without a binding are kept as strings (an array as a `string[]`), so a placeholder can
 * use them; a placeholder with neither is rejected later, when the query is compiled.
 */
export function resolveVariables(inputs: VariableInputs): ResolvedVariables {
  const runtime = inputs.runtime ?? {};
  const configured = configuredMap(inputs.configured);
  const values = new Map<string, ResolvedVariable>();

  for (const binding of inputs.bindings ?? []) {
    const type: unknown = binding.type;
    if (!isVariableType(type)) throw new InvalidVariableError(binding.name, `has an unknown type "${String(type)}"`);
    const candidates: Array<[unknown, ResolvedVariable['origin']]> = [
      [runtime[binding.name], 'runtime'],
      [configured.get(binding.name), 'configured'],
      [binding.default_value, 'default'],
    ];
    let resolved: ResolvedVariable | undefined;
    for (const [raw, origin] of candidates) {
      if (isEmpty(raw)) continue;
      const value = convertVariable(binding.name, type, raw);
      if (isEmpty(value)) continue;
      resolved = { name: binding.name, type, value, origin };
      break;
    }
    if (!resolved) {
      if (binding.required) throw new VariableRequiredError(binding.name);
      resolved = { name: binding.name, type, value: null, origin: 'unset' };
    }
    values.set(binding.name, resolved);
  }

  // Unbound names: usable by placeholders as strings (lists of strings).
  const unbound = (name: string, raw: unknown, origin: ResolvedVariable['origin']): void => {
    if (values.has(name) || isEmpty(raw)) return;
    const type = Array.isArray(raw) ? 'string[]' : 'string';
    values.set(name, { name, type, value: convertVariable(name, type, raw), origin });
  };
  for (const [name, raw] of Object.entries(runtime)) unbound(name, raw, 'runtime');
  for (const [name, raw] of configured) unbound(name, raw, 'configured');

  return { values };
}

/** Converts one raw value to a binding type; a value that does not fit is a 400 naming the variable. */
function convertVariable(name: string, type: VariableType, raw: unknown): VariableValue {
  const converted = convertValue(type, raw);
  if (!converted.ok) throw new InvalidVariableError(name, converted.problem);
  return converted.value;
}

/** Names of the bound variables that have no value in this run, sorted. */
export function variablesWithoutValue(variables: ResolvedVariables): string[] {
  return [...variables.values.values()].filter((v) => v.origin === 'unset').map((v) => v.name).sort();
}

/** The resolved values as a plain object (cache keys, logs without secrets are the caller's call). */
export function variableValues(variables: ResolvedVariables): Record<string, VariableValue> {
  const out: Record<string, VariableValue> = {};
  for (const [name, variable] of [...variables.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    out[name] = variable.value;
  }
  return out;
}
