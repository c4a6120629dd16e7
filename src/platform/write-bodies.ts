import { Type, type TObject, type TProperties } from 'typebox';

/**
 * The Ajv keyword (registered on the body validators in src/app.ts) that deletes the listed keys
 * from a body as it is validated: handlers never see them.
 */
export const IGNORED_KEYS_KEYWORD = 'x-ignoredKeys';

const READ_ONLY_NOTE = 'Read-only: part of the answer; accepted in a body and ignored';

export interface WriteBodyOptions {
  /** A named schema (published under `components.schemas`); a body nested in another has none. */
  $id?: string;
  description?: string;
  /** The resource as answered (one schema or several): its keys that are not writable are accepted and ignored. */
  answer?: TObject | readonly TObject[];
  /**
   * More keys accepted and ignored: the fields and associations of Chartbrew's own answer for the
   * resource that Plotline does not keep, so that a Chartbrew client sending its object back is
   * understood too.
   */
  ignored?: readonly string[];
}

/**
 * A create or update body: the writable fields, plus the read-only keys of the resource's answer
 * (ids, timestamps, nested associations, computed fields), so that an answer sent back unchanged
 * is accepted. The read-only keys are removed before the handler runs (no mass assignment, and a
 * service never writes a key it does not know); any other key is a 400 naming it.
 *
 * Typed as the writable object: after validation, that is all a body holds.
 */
export function WriteBody<W extends TProperties>(writable: W, options: WriteBodyOptions): TObject<W> {
  const { answer, ignored = [], ...schemaOptions } = options;
  const answers: readonly TObject[] = answer === undefined ? [] : 'properties' in answer ? [answer] : answer;
  const keys = new Set([...answers.flatMap((a) => Object.keys(a.properties)), ...ignored]);
  const readOnly = [...keys].filter((key) => !Object.hasOwn(writable, key)).sort();
  // A copy: Type.Object keeps the object it is given as `properties`, and the read-only keys are added to it below.
  const schema = Type.Object({ ...writable }, { ...schemaOptions, additionalProperties: false, [IGNORED_KEYS_KEYWORD]: readOnly });
  // Declared as properties too: the OpenAPI document lists them, marked readOnly.
  for (const key of readOnly) Reflect.set(schema.properties, key, Type.Optional(Type.Unknown({ readOnly: true, description: READ_ONLY_NOTE })));
  return schema;
}

/** The writable keys of a WriteBody (its answer's read-only keys left out): what a stored copy of a body may hold. */
export function writableKeys(body: TObject): string[] {
  return Object.entries(body.properties)
    .filter(([, schema]) => (schema as { readOnly?: unknown }).readOnly !== true)
    .map(([key]) => key);
}
