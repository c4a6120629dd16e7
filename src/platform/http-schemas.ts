import { Type, type Static, type TSchema } from 'typebox';
import { ValidationError } from '../errors/index.js';
import { ROLES } from './authorization.js';

// One reference object per schema: routes answering the same schema share one compiled serializer.
const plainRefs = new WeakMap<TSchema, TSchema>();

/**
 * A reference to a named schema: one with an `$id`, registered on the app (src/openapi-components.ts)
 * and published as `components.schemas[$id]`. Typed as the schema itself, so that handlers and
 * `Static` see its shape. A route's request `examples` sit beside an `allOf` of the reference, as
 * keywords beside a `$ref` are dropped from the OpenAPI document.
 */
export function Ref<T extends TSchema>(schema: T, options?: { examples: Static<T>[] }): T {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new TypeError('Ref() takes a schema that has an $id');
  let ref = plainRefs.get(schema);
  if (!ref) plainRefs.set(schema, (ref = Type.Ref(`${id}#`)));
  return (options ? { allOf: [ref], ...options } : ref) as T;
}

/** Shapes shared by every route: error bodies, path ids, query booleans. */
export const ErrorResponse = Type.Object(
  {
    error: Type.String(),
    code: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'Error', description: 'Every non-2xx answer' },
);
export type ErrorBody = Static<typeof ErrorResponse>;

/** Integer ids arrive as path strings; the params validator coerces and bounds them (Postgres `integer`). */
export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const TeamParams = Type.Object({ team_id: Id });

/** Query booleans accept true|false|1|0 only; anything else is a 400 naming the parameter. */
export const QueryBool = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

/** A query parameter holding a JSON object (`?variables={"status":"paid"}`); absent or empty is undefined. */
export function parseJsonObjectQuery(raw: string | undefined, field: string): Record<string, unknown> | undefined {
  if (raw === undefined || raw === '') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw ValidationError.field(`querystring.${field}`, 'must be a JSON object of variable values');
}

export function parseQueryBool(value: Static<typeof QueryBool> | undefined, fallback = false): boolean {
  if (value === undefined) return fallback;
  return value === 'true' || value === '1';
}

export const Timestamp = Type.String({ format: 'date-time' });

export const Deleted = Type.Object({ deleted: Type.Boolean() }, { $id: 'Deleted' });
export const Removed = Type.Object({ removed: Type.Boolean() }, { $id: 'Removed' });

/** One of the five roles of the role table. */
export const RoleSchema = Type.Enum([...ROLES]);
/** `GET /readyz`: the store is required; Redis, when configured, is optional (degraded without it). */
export const ReadyResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]),
    checks: Type.Object({
      store: Type.Literal('ok'),
      redis: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('disabled')]),
    }),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: 'What the operator should fix although the service is ready (e.g. /metrics reachable without PLOTLINE_METRICS_TOKEN); absent when there is nothing' }),
    ),
  },
  { $id: 'Readiness' },
);

/** The named schemas above, for src/openapi-components.ts. */
export const HTTP_COMPONENTS = [ErrorResponse, Deleted, Removed, ReadyResponse];
