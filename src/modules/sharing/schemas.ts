import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../platform/http-schemas.js';

export const ENTITY_TYPES = ['Project', 'Chart'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** `private`: a signed share token is required; `disabled`: every token of the policy is refused (403). */
export const VISIBILITIES = ['private', 'disabled'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const PolicyParam = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 200 }),
  value: Type.String({ maxLength: 10_000 }),
});

/** token_version stays internal: tokens carry it, clients have no use for it. */
export const SharePolicy = Type.Object({
  id: Type.Integer(),
  entity_type: Type.Enum([...ENTITY_TYPES]),
  entity_id: Type.Integer(),
  share_string: Type.String({ description: 'Random URL-safe identifier (144 bits); the key of chart share URLs' }),
  visibility: Type.Enum([...VISIBILITIES]),
  params: Type.Array(PolicyParam),
  allow_params: Type.Boolean(),
  expires_at: Type.Union([Timestamp, Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const UpdateSharePolicy = Type.Object({
  params: Type.Optional(Type.Array(PolicyParam, { maxItems: 100 })),
  allow_params: Type.Optional(Type.Boolean()),
  expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  visibility: Type.Optional(Type.Enum([...VISIBILITIES])),
});
export type UpdateSharePolicyInput = Static<typeof UpdateSharePolicy>;

export const ProjectPolicyParams = Type.Object({ id: Id });
export const ProjectPolicyItemParams = Type.Object({ id: Id, policy_id: Id });
export const ChartPolicyParams = Type.Object({ project_id: Id, id: Id });
export const ChartPolicyItemParams = Type.Object({ project_id: Id, id: Id, policy_id: Id });
