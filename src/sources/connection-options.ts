import { ValidationError } from '../errors/index.js';

/** `options` as stored: `[{"retryWrites": "true"}]`, `{"retryWrites": "true"}`, or either as JSON text. */
export function optionPairs(options: unknown): Array<[string, string]> {
  let value = options;
  if (typeof value === 'string') {
    if (!value.trim()) return [];
    try {
      value = JSON.parse(value);
    } catch {
      throw ValidationError.field('options', 'must be JSON: an array of single-key objects or an object');
    }
  }
  if (value === null || value === undefined) return [];
  const entries: Array<[string, unknown]> = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item && typeof item === 'object') entries.push(...Object.entries(item as Record<string, unknown>));
    }
  } else if (typeof value === 'object') {
    entries.push(...Object.entries(value as Record<string, unknown>));
  } else {
    throw ValidationError.field('options', 'must be an array of single-key objects or an object');
  }
  return entries.filter(([key]) => key.trim() !== '').map(([key, item]) => [key.trim(), item === null || item === undefined ? '' : String(item)]);
}
