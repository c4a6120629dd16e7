import { Type, type Static, type TSchema } from 'typebox';
import { Ref, Timestamp } from '../../platform/http-schemas.js';
import { ALERT_TYPES } from './alerts-evaluate.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = Type.Optional;

const Rules = Type.Object({
  value: Opt(Type.Number({ description: 'Threshold or milestone; for anomaly the number of standard deviations (default 3)' })),
});

const MediumsInput = Type.Object({
  email: Opt(Type.Object({ enabled: Type.Boolean() })),
  webhook: Opt(Type.Object({ enabled: Type.Boolean(), url: Opt(Type.String({ maxLength: 2048 })) })),
});

const alertFields = {
  name: Opt(Nullable(Type.String({ maxLength: 200 }))),
  cdc_id: Opt(Nullable(Type.String({ maxLength: 64, description: 'The chart dataset config whose series is checked (default: the first)' }))),
  rules: Opt(Rules),
  recipients: Opt(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 50, description: 'Emails of team members' })),
  mediums: Opt(MediumsInput),
  timeout: Opt(Type.Integer({ minimum: 0, maximum: 31_536_000, description: 'Seconds before the alert may notify again (default 600)' })),
  active: Opt(Type.Boolean()),
};

export const CreateAlert = Type.Object({ type: Type.Enum([...ALERT_TYPES]), ...alertFields }, { $id: 'CreateAlert' });
export const UpdateAlert = Type.Object({ type: Opt(Type.Enum([...ALERT_TYPES])), ...alertFields }, { $id: 'UpdateAlert' });
export type CreateAlertInput = Static<typeof CreateAlert>;
export type UpdateAlertInput = Static<typeof UpdateAlert>;

const Delivery = Type.Object({ medium: Type.String(), ok: Type.Boolean(), detail: Type.String() });

const AlertEvent = Type.Object({
  id: Type.Integer(),
  alert_id: Type.Integer(),
  chart_id: Type.Integer(),
  run_id: Nullable(Type.Integer()),
  value: Nullable(Type.Number()),
  message: Type.String(),
  deliveries: Type.Array(Delivery),
  createdAt: Timestamp,
}, { $id: 'AlertEvent' });
export type AlertEventView = Static<typeof AlertEvent>;

export const Alert = Type.Object({
  id: Type.Integer(),
  chart_id: Type.Integer(),
  project_id: Type.Integer(),
  cdc_id: Nullable(Type.String()),
  name: Nullable(Type.String()),
  type: Type.String(),
  rules: Rules,
  recipients: Type.Array(Type.String()),
  mediums: Type.Object({
    email: Opt(Type.Object({ enabled: Type.Boolean() })),
    webhook: Opt(Type.Object({ enabled: Type.Boolean(), url: Type.String() })),
  }),
  timeout: Type.Integer(),
  active: Type.Boolean(),
  lastTriggeredAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  webhookSecret: Opt(
    Type.String({ description: 'HMAC-SHA256 key of the webhook signature header; shown only when it is created, "********" afterwards' }),
  ),
  events: Opt(Type.Array(Ref(AlertEvent), { description: 'Latest notifications, newest first (single-alert reads)' })),
}, { $id: 'Alert' });
export type AlertView = Static<typeof Alert>;

/** Published under `components.schemas` (src/openapi-components.ts). */
export const ALERT_COMPONENTS = [CreateAlert, UpdateAlert, AlertEvent, Alert];
