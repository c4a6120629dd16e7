/**
 * Every route documents the same error body for each of its failure statuses. Written out in every
 * operation, those copies were half of `/openapi.json`; here they become one shared response,
 * `#/components/responses/Error`, whose body is the named schema `#/components/schemas/Error`.
 * Responses that differ (other media types, other schemas) stay as they are.
 */
type Json = Record<string, unknown>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const ERROR_SCHEMA = '#/components/schemas/Error';

function isError(response: unknown): response is Json {
  if (!response || typeof response !== 'object') return false;
  const content = (response as Json)['content'] as Record<string, Json> | undefined;
  if (!content) return false;
  const types = Object.keys(content);
  const schema = content['application/json']?.['schema'] as Json | undefined;
  return types.length === 1 && types[0] === 'application/json' && schema?.['$ref'] === ERROR_SCHEMA && Object.keys(schema).length === 1;
}

export function shareErrorResponses<T extends object>(document: T): T {
  const doc = document as Json;
  const paths = (doc['paths'] ?? {}) as Record<string, Record<string, Json>>;
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
  const components = (doc['components'] ??= {}) as Json;
  components['responses'] = {
    ...((components['responses'] as Json | undefined) ?? {}),
    Error: { description: description ?? 'Error', content: { 'application/json': { schema: { $ref: ERROR_SCHEMA } } } },
  };
  return document;
}

/**
 * A request body with examples is `{allOf: [{$ref}], examples}` in its route (src/platform/http-schemas.ts
 * `Ref`): keywords beside a `$ref` would be dropped. In the document the examples have moved to the
 * media object by now, and the lone `allOf` (which linters flag) gives way to the reference itself.
 */
export function unwrapBodyReferences<T extends object>(document: T): T {
  const paths = ((document as Json)['paths'] ?? {}) as Record<string, Record<string, Json>>;
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !operation || typeof operation !== 'object') continue;
      const content = (operation['requestBody'] as Json | undefined)?.['content'] as Record<string, Json> | undefined;
      for (const media of Object.values(content ?? {})) {
        const schema = media['schema'] as Json | undefined;
        const allOf = schema?.['allOf'];
        if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(schema!).length === 1) media['schema'] = allOf[0];
      }
    }
  }
  return document;
}
