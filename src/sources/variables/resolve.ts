import { InvalidVariableError, VariableRequiredError } from '../errors.js';
import type { ResolvedVariable, ResolvedVariables, VariableBinding, VariableType } from '../types.js';

export interface VariableInputs {
  /** The data request's bindings (name, type, default_value, required). */
  bindings?: readonly VariableBinding[] | null;
  /** Values given for this run (request body, share policy params, URL params). Highest precedence. */
  runtime?: Readonly<Record<string, unknown>> | null;
  /** Values saved on the chart dataset config (`configuration.variables`). */
  configured?: Readonly<Record<string, unknown>> | ReadonlyArray<{ name: string; value: unknown }> | null;
}

export const NO_VARIABLES: ResolvedVariables = Object.freeze({ values: new Map<string, ResolvedVariable>() });

const VARIABLE_TYPES: readonly VariableType[] = ['string', 'number', 'boolean', 'date'];
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const HAS_ZONE = /([zZ]|[+-]\d{2}(:?\d{2})?)$/;

/** Null, undefined and "" mean "no value here": the next source of values is consulted. */
function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
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
 * checks `required` bindings and converts every value to its binding's type. Values without a
 * binding are kept as strings, so a placeholder can use them; a placeholder with neither is
 * rejected later, when the query is compiled.
 */
export function resolveVariables(inputs: VariableInputs): ResolvedVariables {
  const runtime = inputs.runtime ?? {};
  const configured = configuredMap(inputs.configured);
  const values = new Map<string, ResolvedVariable>();

  for (const binding of inputs.bindings ?? []) {
    const type = binding.type;
    if (!VARIABLE_TYPES.includes(type)) throw new InvalidVariableError(binding.name, `has an unknown type "${String(type)}"`);
    let raw: unknown;
    let origin: ResolvedVariable['origin'] = 'unset';
    if (!isEmpty(runtime[binding.name])) {
      raw = runtime[binding.name];
      origin = 'runtime';
    } else if (!isEmpty(configured.get(binding.name))) {
      raw = configured.get(binding.name);
      origin = 'configured';
    } else if (!isEmpty(binding.default_value)) {
      raw = binding.default_value;
      origin = 'default';
    }
    if (origin === 'unset') {
      if (binding.required) throw new VariableRequiredError(binding.name);
      values.set(binding.name, { name: binding.name, type, value: null, origin });
      continue;
    }
    values.set(binding.name, { name: binding.name, type, value: convertVariable(binding.name, type, raw), origin });
  }

  // Unbound names: usable by placeholders as strings.
  const unbound = (name: string, raw: unknown, origin: ResolvedVariable['origin']): void => {
    if (values.has(name) || isEmpty(raw)) return;
    values.set(name, { name, type: 'string', value: convertVariable(name, 'string', raw), origin });
  };
  for (const [name, raw] of Object.entries(runtime)) unbound(name, raw, 'runtime');
  for (const [name, raw] of configured) unbound(name, raw, 'configured');

  return { values };
}

/** Converts one raw value to a binding type; a value that does not fit is a 400 naming the variable. */
function convertVariable(name: string, type: VariableType, raw: unknown): string | number | boolean {
  switch (type) {
    case 'string':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
      if (typeof raw === 'boolean' || typeof raw === 'bigint') return String(raw);
      if (raw instanceof Date && !Number.isNaN(raw.getTime())) return raw.toISOString();
      throw new InvalidVariableError(name, 'must be a string');
    case 'number': {
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      if (typeof raw === 'string' && NUMERIC.test(raw.trim())) return Number(raw.trim());
      throw new InvalidVariableError(name, 'must be a number');
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const text = typeof raw === 'string' ? raw.trim().toLowerCase() : typeof raw === 'number' ? String(raw) : '';
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw new InvalidVariableError(name, 'must be a boolean (true, false, 1 or 0)');
    }
    case 'date':
      return convertDate(name, raw);
  }
}

function convertDate(name: string, raw: unknown): string {
  const invalid = (): InvalidVariableError => new InvalidVariableError(name, 'must be a date (YYYY-MM-DD or an ISO 8601 date-time)');
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) throw invalid();
    return raw.toISOString();
  }
  if (typeof raw === 'number' && Number.isFinite(raw)) {
    const date = new Date(raw);
    if (Number.isNaN(date.getTime())) throw invalid();
    return date.toISOString();
  }
  if (typeof raw !== 'string') throw invalid();
  const text = raw.trim();
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    // Round-trip through UTC to reject impossible calendar dates such as 2025-02-30.
    const date = new Date(`${text}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) throw invalid();
    return text;
  }
  if (!DATE_TIME.test(text)) throw invalid();
  // A date-time without a zone is read as UTC, never as the server's local time.
  const zoned = HAS_ZONE.test(text) ? text : `${text}Z`;
  const date = new Date(zoned.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) throw invalid();
  return date.toISOString();
}

/** The resolved values as a plain object (cache keys, logs without secrets are the caller's call). */
export function variableValues(variables: ResolvedVariables): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [name, variable] of [...variables.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    out[name] = variable.value;
  }
  return out;
}
