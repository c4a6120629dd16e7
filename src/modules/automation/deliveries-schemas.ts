import { Type, type Static, type TSchema } from 'typebox';
import { Id, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { MASK } from '../../redaction/index.js';
import { DELIVERY_FORMATS, RUN_STATUSES } from './deliveries-repository.js';
import { DELIVERY_FREQUENCIES, FREQUENCY_BOUNDS } from './deliveries-frequencies.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = Type.Optional;

const Weekday = Type.Union([Type.Integer({ minimum: 1, maximum: 7 }), Type.String({ maxLength: 20 })], { description: '1-7 (Monday = 1) or a day name' });

const bounds = Object.entries(FREQUENCY_BOUNDS)
  .map(([frequency, b]) => `${frequency} ${b.min}-${b.max}`)
  .join(', ');

const ScheduleInput = Type.Object({
  frequency: Type.String({ maxLength: 20, description: `One of ${DELIVERY_FREQUENCIES.join(', ')}` }),
  frequencyNumber: Opt(
    Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
      description: `every_x_*: how many minutes, hours or days after the last delivery (a number or its digits; ${bounds}); ignored otherwise`,
    }),
  ),
  time: Opt(Type.Object({ hour: Opt(Type.Integer({ minimum: 0, maximum: 23 })), minute: Opt(Type.Integer({ minimum: 0, maximum: 59 })) }, { description: 'Wall-clock time in `timezone` (default 09:00); ignored by every_x_*' })),
  timezone: Opt(Type.String({ maxLength: 100, description: 'IANA time zone (default UTC)' })),
  dayOfWeek: Opt(Weekday),
  dayOfMonth: Opt(Type.Integer({ minimum: 1, maximum: 31, description: 'Monthly: the day (past the month\'s end: its last day)' })),
  daysOfWeek: Opt(Type.Array(Weekday, { maxItems: 7, description: 'Daily: only on these days' })),
});

const Schedule = Type.Object({
  frequency: Type.Enum([...DELIVERY_FREQUENCIES]),
  frequencyNumber: Opt(Type.Integer({ description: 'every_x_*: minutes, hours or days after the last delivery' })),
  time: Opt(Type.Object({ hour: Type.Integer(), minute: Type.Integer() }, { description: 'Absent for every_x_*' })),
  timezone: Type.String(),
  dayOfWeek: Opt(Type.Integer()),
  dayOfMonth: Opt(Type.Integer()),
  daysOfWeek: Opt(Type.Array(Type.Integer())),
});

const FilterState = Type.Object(
  {
    filters: Opt(Type.Array(Type.Unknown(), { maxItems: 100, description: 'Runtime filters, as `POST /project/{id}/filter` takes them' })),
    variables: Opt(Type.Record(Type.String(), Type.Unknown(), { description: 'Variable values, as the filter runs take them' })),
  },
  { description: "The dashboard's filter and variable values the delivery is drawn with" },
);

const MaskedUrl = Type.String({ description: `The URL's origin followed by "${MASK}": its path holds its credential` });

export const Subscription = Type.Object({
  id: Type.Integer(),
  project_id: Type.Integer(),
  chart_id: Nullable(Type.Integer()),
  name: Nullable(Type.String()),
  schedule: Schedule,
  format: Type.Enum([...DELIVERY_FORMATS]),
  theme: Type.Enum(['light', 'dark']),
  filters: Nullable(FilterState),
  recipients: Type.Array(Type.String(), { description: 'E-mail addresses' }),
  slackWebhooks: Type.Array(MaskedUrl, { description: 'Slack incoming-webhook URLs' }),
  integrations: Type.Array(Type.Integer(), { description: "The team's integrations (webhooks, Slack incoming webhooks) it is sent to" }),
  webhook: Nullable(Type.Object({ url: MaskedUrl })),
  webhookSecret: Opt(Type.String({ description: `HMAC-SHA256 key of the webhook's \`x-plotline-signature\` header; shown when the webhook is first set, "${MASK}" afterwards` })),
  active: Type.Boolean({ description: 'False while paused' }),
  origin: Type.String({ description: '`api`, or `snapshotSchedule` for the one written through `PUT /project/{id}`' }),
  lastSentAt: Nullable(Timestamp),
  nextAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'Subscription' });
export type SubscriptionView = Static<typeof Subscription>;

const subscriptionFields = {
  name: Opt(Nullable(Type.String({ maxLength: 200 }))),
  schedule: Opt(ScheduleInput),
  format: Opt(Type.Enum([...DELIVERY_FORMATS], { description: 'png: inline picture; pdf: a dashboard as an attached PDF; csv: a table chart as an attached CSV' })),
  theme: Opt(Type.Enum(['light', 'dark'])),
  filters: Opt(Nullable(FilterState)),
  recipients: Opt(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 1000, description: "E-mail addresses: the team's members, others only when the team's `allowExternalRecipients` is on" })),
  slackWebhooks: Opt(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 1000, description: `Slack incoming-webhook URLs; one sent back as answered (or "${MASK}") keeps the stored one at its place` })),
  integrations: Opt(Type.Array(Id, { maxItems: 1000 })),
  webhook: Opt(Nullable(Type.Object({ url: Type.String({ maxLength: 2048 }) }))),
  active: Opt(Type.Boolean()),
};

export const CreateSubscription = WriteBody(
  { ...subscriptionFields, schedule: ScheduleInput, chart_id: Opt(Nullable(Id)) },
  { $id: 'CreateSubscription', answer: Subscription },
);
export const UpdateSubscription = WriteBody(subscriptionFields, { $id: 'UpdateSubscription', answer: Subscription });
export type CreateSubscriptionInput = Static<typeof CreateSubscription>;
export type UpdateSubscriptionInput = Static<typeof UpdateSubscription>;

const TargetOutcome = Type.Object({
  medium: Type.Enum(['email', 'slack', 'webhook', 'integration']),
  target: Type.String({ description: 'The address, or the URL\'s origin' }),
  ok: Type.Boolean(),
  attempts: Type.Integer({ description: 'Tries of this send (0: not sent, e.g. no longer a member of the team)' }),
  detail: Type.String(),
  sentInRun: Opt(Type.Integer({ description: 'Present when an earlier, interrupted run of the same period sent it: that run; it was not sent again' })),
});

export const SubscriptionRun = Type.Object({
  id: Type.Integer(),
  subscription_id: Type.Integer(),
  trigger: Type.Enum(['schedule', 'manual']),
  period: Nullable(Type.String()),
  status: Type.Enum([...RUN_STATUSES], {
    description:
      '`running`: being delivered (`deliveries` so far); `sent` to every target, `partial`, `failed`; `interrupted`: the process delivering it stopped before the end (`deliveries`: the targets it had reached; `error` says whether a later run resumed it)',
  }),
  startedAt: Timestamp,
  durationMs: Type.Integer({ description: 'So far, while `running`' }),
  dataUpdatedAt: Nullable(Timestamp),
  deliveries: Type.Array(TargetOutcome),
  error: Nullable(Type.String()),
  resumed_from: Type.Union([Type.Integer(), Type.Null()], { description: 'The interrupted run of the same period this one resumed, sending only to the targets it had not reached' }),
}, { $id: 'SubscriptionRun' });

export const SubscriptionRuns = Type.Object({
  runs: Type.Array(SubscriptionRun),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

/** What the deliveries of a dashboard can use on this server and in this team. */
export const DeliveryStatus = Type.Object({
  email: Type.Boolean({ description: 'An SMTP server is configured (PLOTLINE_SMTP_URL): email recipients are accepted' }),
  slack: Type.Boolean({ description: 'Slack incoming webhooks are accepted (always)' }),
  allowExternalRecipients: Type.Boolean({ description: "The team's setting: email to addresses outside the team" }),
  maxRecipients: Type.Integer({ description: 'Targets one subscription may have' }),
}, { $id: 'DeliveryStatus' });
export type DeliveryStatusView = Static<typeof DeliveryStatus>;

export const SUBSCRIPTION_COMPONENTS = [CreateSubscription, UpdateSubscription, Subscription, SubscriptionRun, DeliveryStatus];
