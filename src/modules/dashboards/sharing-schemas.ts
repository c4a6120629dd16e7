import { Type, type Static } from 'typebox';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';

const ENTITY_TYPES = ['Project', 'Chart'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** `private`: a signed share token is required; `disabled`: every token of the policy is refused (403). */
const VISIBILITIES = ['private', 'disabled'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const PolicyParam = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 200 }),
  value: Type.String({ maxLength: 10_000 }),
}, { $id: 'SharePolicyParam' });

export const SharePolicy = Type.Object({
  id: Type.Integer(),
  entity_type: Type.Enum([...ENTITY_TYPES]),
  entity_id: Type.Integer(),
  share_string: Type.String({ description: 'Random URL-safe identifier (144 bits); the key of chart share URLs' }),
  visibility: Type.Enum([...VISIBILITIES]),
  params: Type.Array(Ref(PolicyParam)),
  allow_params: Type.Boolean(),
  expires_at: Type.Union([Timestamp, Type.Null()]),
  token_version: Type.Integer({
    minimum: 2,
    description: "2 for a new policy, one more after each revoke; tokens issued before a revoke stop working. Chartbrew's web app signs a link by itself for a policy at 2 or more",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'SharePolicy' });

/** Chartbrew's policy also answers an unused password; `token_version` moves only by revoking. */
export const UpdateSharePolicy = WriteBody({
  params: Type.Optional(Type.Array(Ref(PolicyParam), { maxItems: 100 })),
  allow_params: Type.Optional(Type.Boolean()),
  expires_at: Type.Optional(
    Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
      description:
        "When every link of the policy stops working: an ISO 8601 date-time (2030-12-31T23:59:59Z), or a local one without zone, as a datetime-local input gives it (2030-12-31T23:59), read in the dashboard's time zone (UTC when it has none); null or \"\": never",
    }),
  ),
  visibility: Type.Optional(Type.Enum([...VISIBILITIES])),
}, { $id: 'UpdateSharePolicy', answer: SharePolicy, ignored: ['password'] });
export type UpdateSharePolicyInput = Static<typeof UpdateSharePolicy>;

export const ProjectPolicyParams = Type.Object({ id: Id });
export const ProjectPolicyItemParams = Type.Object({ id: Id, policy_id: Id });
export const ChartPolicyParams = Type.Object({ project_id: Id, id: Id });
export const ChartPolicyItemParams = Type.Object({ project_id: Id, id: Id, policy_id: Id });

// ---------- share tokens ----------

/** Only `params` and `allow_params` may be changed while issuing a token (no mass assignment). */
export const ShareTokenBody = Type.Union([
  Type.Object({
    share_policy: Type.Optional(
      Type.Object({
        params: Type.Optional(Type.Array(Ref(PolicyParam), { maxItems: 100 })),
        allow_params: Type.Optional(Type.Boolean()),
      }),
    ),
    exp: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
        description: 'ISO 8601 date-time when the token stops working; absent, "" or null (what Chartbrew\'s client sends for none): 99999 days',
      }),
    ),
    sharePolicyId: Type.Optional(Id),
  }),
  Type.Null(),
], { $id: 'CreateShareToken' });
export type ShareTokenInput = Exclude<Static<typeof ShareTokenBody>, null>;

export const ShareTokenResult = Type.Object({
  token: Type.String({ description: 'Signed JWT (HS256) naming the policy; re-checked against it on every use' }),
  url: Type.String({ description: 'Shareable link: {app_url}/report/<brewName>?token=… or {app_url}/chart/<share_string>/embedded?token=…' }),
  /** The policy the token names, as it is after this call. */
  sharePolicy: Ref(SharePolicy),
}, { $id: 'ShareToken' });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const SHARING_COMPONENTS = [PolicyParam, SharePolicy, UpdateSharePolicy, ShareTokenBody, ShareTokenResult];
