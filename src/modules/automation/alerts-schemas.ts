import { Type, type Static, type TSchema } from 'typebox';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { ALERT_TYPES } from './alerts-evaluate.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = Type.Optional;

const Rules = Type.Object({
  value: Opt(Type.Number({ description: 'Threshold or milestone; for anomaly the number of standard deviations (default 3)' })),
});

/** Chartbrew's client sends the number its form field holds, as text. */
const RulesInput = Type.Object({
  value: Opt(
    Type.Union([Type.Number(), Type.String({ pattern: '^\\s*-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*$' })], {
      description: 'Threshold or milestone (a number, or a number as text); for anomaly the number of standard deviations (default 3)',
    }),
  ),
});

const MediumsInput = Type.Object({
  email: Opt(Type.Object({ enabled: Type.Boolean() })),
  webhook: Opt(Type.Object({ enabled: Type.Boolean(), url: Opt(Type.String({ maxLength: 2048 })) })),
});

/** An integration an alert notifies (`enabled`) or has been told to leave alone. */
const AlertIntegration = Type.Object({
  id: Type.Integer(),
  alert_id: Type.Integer(),
  integration_id: Type.Integer(),
  enabled: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'AlertIntegration' });
export type AlertIntegrationView = Static<typeof AlertIntegration>;

/** As Chartbrew's client sends them: the answered items, changed or new (without `id`). */
const AlertIntegrationInput = WriteBody(
  { integration_id: Id, enabled: Opt(Type.Boolean({ description: 'Default true' })) },
  { answer: AlertIntegration },
);
export type AlertIntegrationInput = Static<typeof AlertIntegrationInput>;

const alertFields = {
  name: Opt(Nullable(Type.String({ maxLength: 200 }))),
  cdc_id: Opt(Nullable(Type.String({ maxLength: 64, description: 'The chart dataset config whose series is checked (default: the first)' }))),
  rules: Opt(RulesInput),
  recipients: Opt(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 50, description: 'Emails of team members' })),
  mediums: Opt(MediumsInput),
  timeout: Opt(Type.Integer({ minimum: 0, maximum: 31_536_000, description: 'Seconds before the alert may notify again (default 600)' })),
  active: Opt(Type.Boolean()),
  alertIntegrations: Opt(
    Type.Array(AlertIntegrationInput, {
      maxItems: 50,
      description: "The team's integrations (GET /team/{id}/integration) this alert notifies; the list replaces the alert's own",
    }),
  ),
};

const Delivery = Type.Object({
  medium: Type.String({ description: '`webhook`, `email` or `integration`' }),
  ok: Type.Boolean(),
  detail: Type.String(),
  integration_id: Opt(Type.Integer({ description: 'The integration notified (medium `integration`)' })),
});

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
  AlertIntegrations: Type.Array(Ref(AlertIntegration)),
}, { $id: 'Alert' });
export type AlertView = Static<typeof Alert>;

/** Chartbrew's alert names its dataset and its last trigger so; the chart dataset config (`cdc_id`) and `lastTriggeredAt` say it here. */
const CHARTBREW_ALERT_KEYS = ['dataset_id', 'lastTriggered', 'AlertEvents'];

export const CreateAlert = WriteBody({ type: Type.Enum([...ALERT_TYPES]), ...alertFields }, { $id: 'CreateAlert', answer: Alert, ignored: CHARTBREW_ALERT_KEYS });
export const UpdateAlert = WriteBody({ type: Opt(Type.Enum([...ALERT_TYPES])), ...alertFields }, { $id: 'UpdateAlert', answer: Alert, ignored: CHARTBREW_ALERT_KEYS });
export type CreateAlertInput = Static<typeof CreateAlert>;
export type UpdateAlertInput = Static<typeof UpdateAlert>;

/** Published under `components.schemas` (src/openapi-components.ts). */

/** What an alert form needs to know before it offers a medium. */
export const AlertMediumsStatus = Type.Object(
  {
    email: Type.Object({
      available: Type.Boolean({ description: 'An SMTP server is configured (PLOTLINE_SMTP_URL): alerts may e-mail their recipients' }),
    }),
    webhook: Type.Object({ available: Type.Boolean({ description: 'Always true: a webhook needs no server setting' }) }),
  },
  { $id: 'AlertMediumsStatus' },
);

/** What a test send reached: one delivery per medium the alert notifies. */
export const AlertTestResult = Type.Object(
  { deliveries: Type.Array(Delivery, { description: 'Each medium tried (webhook, integrations, e-mail) and whether it answered' }) },
  { $id: 'AlertTestResult' },
);

export const ALERT_COMPONENTS = [AlertIntegration, CreateAlert, UpdateAlert, AlertEvent, Alert, AlertMediumsStatus, AlertTestResult];
