import { ValidationError } from '../../errors/index.js';
import { isSecretName, MASK } from '../../redaction/index.js';
import { convertValue, isListType } from '../../sources/index.js';
import type { ConnectionSummary } from './connections-service.js';
import type { BindingType, DataRequestRecord, Header, VariableBinding } from './data-requests-repository.js';
import type { DataRequestView } from './datasets-schemas.js';

export function dataRequestView(
  record: DataRequestRecord,
  connection: ConnectionSummary | undefined,
  bindings: VariableBinding[],
  showHost: boolean,
): DataRequestView {
  return {
    ...record,
    headers: record.headers.map((h) => ({ key: h.key, value: isSecretName(h.key) && h.value !== '' ? MASK : h.value })),
    Connection: connection
      ? { id: connection.id, name: connection.name, type: connection.type, subType: connection.subType, ...(showHost ? { host: connection.host } : {}) }
      : null,
    VariableBindings: bindings,
  };
}

/** `[{key, value}]` or `{name: value}` in; `[{key, value}]` of strings out. CR/LF never reach a header. */
export function normalizeHeaders(input: unknown, field = 'body.headers'): Header[] {
  const pairs: [string, unknown][] = Array.isArray(input)
    ? input.map((h: { key: string; value: unknown }) => [h.key, h.value])
    : Object.entries((input ?? {}) as Record<string, unknown>);
  return pairs.map(([key, value], index) => {
    const text = value === null || value === undefined ? '' : String(value);
    if (/[\r\n]/.test(key) || /[\r\n]/.test(text)) {
      throw ValidationError.field(`${field}.${index}`, 'must not contain line breaks');
    }
    return { key, value: text };
  });
}

/** Writing the mask back keeps the stored value of that header. */
export function mergeMaskedHeaders(incoming: Header[], stored: Header[]): Header[] {
  return incoming.map((h) => {
    if (h.value !== MASK) return h;
    const previous = stored.find((s) => s.key.toLowerCase() === h.key.toLowerCase());
    return previous ? { key: h.key, value: previous.value } : h;
  });
}

/** `{{name}}` written in a binding name is unwrapped to `name`. */
export function bindingName(raw: string, field: string): string {
  const name = raw.trim().replace(/^\{\{\s*/, '').replace(/\s*\}\}$/, '');
  if (!/^[A-Za-z_][\w.-]{0,99}$/.test(name)) {
    throw ValidationError.field(field, 'must be a variable name (letters, digits, _, ., -; starting with a letter or _)');
  }
  return name;
}

/**
 * A default value must parse as the binding's type; it is stored as text. A list type's default
 * (a JSON array, or text as a run would take it) is stored as its values in a JSON array; an empty
 * list is no default.
 */
export function bindingDefault(
  type: BindingType,
  raw: string | number | boolean | ReadonlyArray<string | number | boolean> | null | undefined,
  field: string,
): string | null {
  if (isListType(type)) {
    if (raw === null || raw === undefined || raw === '') return null;
    const converted = convertValue(type, raw);
    if (!converted.ok) throw ValidationError.field(field, `${converted.problem} for a ${type} variable`);
    return Array.isArray(converted.value) && converted.value.length > 0 ? JSON.stringify(converted.value) : null;
  }
  if (Array.isArray(raw)) throw ValidationError.field(field, `must be one value for a ${type} variable (a list needs a list type such as ${type}[])`);
  if (raw === null || raw === undefined || raw === '') return raw === '' && type === 'string' ? '' : null;
  const text = String(raw);
  switch (type) {
    case 'number':
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text.trim())) throw ValidationError.field(field, 'must be a number for a number variable');
      return text.trim();
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw ValidationError.field(field, 'must be true or false for a boolean variable');
      return text;
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(Date.parse(text))) {
        throw ValidationError.field(field, 'must be an ISO 8601 date (YYYY-MM-DD or a full timestamp) for a date variable');
      }
      return text;
    default:
      return text;
  }
}
