/**
 * A union told apart by one property (`discriminator: {propertyName}`, which the app's Ajv
 * validates with) names no `mapping`: Ajv refuses one. OpenAPI then reads each branch's tag as
 * its schema's name, which is not what the branches hold (`type: "date"`, not
 * `"DateFilterConfiguration"`). In the published document each such union gets its mapping from
 * its branches' own values of the tag (a `const`, or the one value of an `enum`). The schemas the validators use are left as they are: changed
 * ones are copies.
 */
type Json = Record<string, unknown>;

const PREFIX = '#/components/schemas/';

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function discriminatorMappings<T extends object>(document: T): T {
  const components = (document as Json)['components'];
  const schemas = isJson(components) && isJson(components['schemas']) ? components['schemas'] : undefined;
  if (!schemas) return document;
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isJson(schema) || !isJson(schema['discriminator']) || !Array.isArray(schema['oneOf'])) continue;
    const discriminator = schema['discriminator'];
    const tag = discriminator['propertyName'];
    if (typeof tag !== 'string' || discriminator['mapping'] !== undefined) continue;
    const mapping: Record<string, string> = {};
    for (const branch of schema['oneOf']) {
      const ref = isJson(branch) ? branch['$ref'] : undefined;
      const target = typeof ref === 'string' && ref.startsWith(PREFIX) ? schemas[ref.slice(PREFIX.length)] : undefined;
      const properties = isJson(target) ? target['properties'] : undefined;
      const property = isJson(properties) ? properties[tag] : undefined;
      // The document writes a `const` as a one-value `enum`.
      const value = isJson(property) ? (property['const'] ?? (Array.isArray(property['enum']) && property['enum'].length === 1 ? property['enum'][0] : undefined)) : undefined;
      if (typeof value === 'string' && typeof ref === 'string') mapping[value] = ref;
    }
    schemas[name] = { ...schema, discriminator: { ...discriminator, mapping } };
  }
  return document;
}
