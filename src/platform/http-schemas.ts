import { Type, type Static } from 'typebox';
import { ROLES } from './authorization.js';

/** Shapes shared by every route: error bodies, path ids, query booleans. */
export const ErrorResponse = Type.Object(
  {
    error: Type.String(),
    code: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { description: 'Every non-2xx answer' },
);
export type ErrorBody = Static<typeof ErrorResponse>;

/** Integer ids arrive as path strings; the params validator coerces and bounds them (Postgres `integer`). */
export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const TeamParams = Type.Object({ team_id: Id });

/** Query booleans accept true|false|1|0 only; anything else is a 400 naming the parameter. */
export const QueryBool = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

export function parseQueryBool(value: Static<typeof QueryBool> | undefined, fallback = false): boolean {
  if (value === undefined) return fallback;
  return value === 'true' || value === '1';
}

export const Timestamp = Type.String({ format: 'date-time' });

export const Deleted = Type.Object({ deleted: Type.Boolean() });
export const Removed = Type.Object({ removed: Type.Boolean() });

/** One of the five roles of the role table. */
export const RoleSchema = Type.Enum([...ROLES]);
/** `GET /readyz`: the store is required; Redis, when configured, is optional (degraded without it). */
export const ReadyResponse = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]),
  checks: Type.Object({
    store: Type.Literal('ok'),
    redis: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('disabled')]),
  }),
  warnings: Type.Optional(
    Type.Array(Type.String(), { description: 'What the operator should fix although the service is ready (e.g. /metrics reachable without PLOTLINE_METRICS_TOKEN); absent when there is nothing' }),
  ),
});
