/**
 * Every route documents the same error body for each of its failure statuses. Written out in every
 * operation, those copies were half of `/openapi.json`; here they become one shared response,
 * `#/components/responses/Error`, whose body is `#/components/schemas/Error`. Responses that differ
 * (other media types, other schemas) stay as they are.
 */
type Json = Record<string, unknown>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** JSON with object keys in order: the same schema however its keys were written. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function shareErrorResponses<T extends object>(document: T, errorSchema: object): T {
  const doc = document as Json;
  const paths = (doc['paths'] ?? {}) as Record<string, Record<string, Json>>;
  const schemaText = canonical(errorSchema);
  const isError = (response: unknown): response is Json => {
    if (!response || typeof response !== 'object') return false;
    const content = (response as Json)['content'] as Record<string, Json> | undefined;
    if (!content) return false;
    const types = Object.keys(content);
    return types.length === 1 && types[0] === 'application/json' && canonical(content['application/json']?.['schema']) === schemaText;
  };
  let description: string | undefined;
  let shared = 0;
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !operation || typeof operation !== 'object') continue;
      const responses = operation['responses'] as Record<string, unknown> | undefined;
      if (!responses) continue;
      for (const [status, response] of Object.entries(responses)) {
        if (status.startsWith('2') || !isError(response)) continue;
        description ??= typeof response['description'] === 'string' ? response['description'] : 'Error';
        responses[status] = { $ref: '#/components/responses/Error' };
        shared++;
      }
    }
  }
  if (shared === 0) return document;
  const components = ((doc['components'] ??= {}) as Json);
  const { description: schemaDescription, ...schema } = errorSchema as Json;
  components['schemas'] = { ...((components['schemas'] as Json | undefined) ?? {}), Error: { ...schema, ...(schemaDescription ? { description: schemaDescription } : {}) } };
  components['responses'] = {
    ...((components['responses'] as Json | undefined) ?? {}),
    Error: { description: description ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  };
  return document;
}
