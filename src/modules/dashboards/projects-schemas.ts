import { Type, type Static, type TSchema } from 'typebox';
import { Id, Ref, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { Chart } from './charts-schemas.js';
import { DashboardFilter } from './dashboard-filters-schemas.js';
import { SharePolicy } from './sharing-schemas.js';

/** The frequencies the dashboard scheduler understands. */
const FREQUENCIES = ['every_x_minutes', 'every_x_hours', 'every_x_days', 'daily', 'weekly'] as const;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = Type.Optional;

/** A weekday as a name or as 1-7 with Monday = 1. */
const Weekday = Type.Union([Type.Integer({ minimum: 1, maximum: 7 }), Type.Enum([...WEEKDAYS])]);

const ScheduleTime = Type.Object({
  hour: Opt(Type.Integer({ minimum: 0, maximum: 23 })),
  minute: Opt(Type.Integer({ minimum: 0, maximum: 59 })),
  second: Opt(Type.Integer({ minimum: 0, maximum: 59 })),
  millisecond: Opt(Type.Integer({ minimum: 0, maximum: 999 })),
});

const UpdateScheduleInput = Type.Object({
  timezone: Opt(Type.String({ minLength: 1, maxLength: 100 })),
  frequency: Opt(Type.Enum([...FREQUENCIES])),
  frequencyNumber: Opt(
    Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.String({ pattern: '^[1-9][0-9]{0,6}$', description: 'A positive integer as a string' })]),
  ),
  time: Opt(ScheduleTime),
  dayOfWeek: Opt(Weekday),
  daysOfWeek: Opt(Type.Array(Weekday, { maxItems: 7 })),
});
export type UpdateScheduleBody = Static<typeof UpdateScheduleInput>;

/** Stored and returned shape: `frequencyNumber` is always a string, as in the spec. */
const UpdateSchedule = Type.Object({
  timezone: Opt(Type.String()),
  frequency: Opt(Type.String()),
  frequencyNumber: Opt(Type.String()),
  time: Opt(ScheduleTime),
  dayOfWeek: Opt(Weekday),
  daysOfWeek: Opt(Type.Array(Weekday)),
});
export type StoredSchedule = Static<typeof UpdateSchedule>;

const Colour = Type.String({ minLength: 1, maxLength: 100, description: '#rgb, #rrggbb, #rrggbbaa, rgb()/rgba() or a CSS colour name' });

const projectFields = {
  dashboardTitle: Opt(Nullable(Type.String({ maxLength: 500 }))),
  description: Opt(Nullable(Type.String({ maxLength: 10_000 }))),
  backgroundColor: Opt(Nullable(Colour)),
  titleColor: Opt(Nullable(Colour)),
  headerCode: Opt(Nullable(Type.String({ maxLength: 100_000 }))),
  footerCode: Opt(Nullable(Type.String({ maxLength: 100_000 }))),
  logo: Opt(Nullable(Type.String({ maxLength: 2048 }))),
  logoLink: Opt(Nullable(Type.String({ maxLength: 2048 }))),
  public: Opt(Type.Boolean()),
  passwordProtected: Opt(Type.Boolean()),
  password: Opt(Nullable(Type.String({ minLength: 8, maxLength: 1024, description: 'Write-only; stored as a scrypt hash' }))),
  timezone: Opt(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  updateSchedule: Opt(Nullable(UpdateScheduleInput)),
};

const ProjectName = Type.String({ minLength: 1, maxLength: 200 });

/**
 * Chartbrew's snapshot schedule as its schedule dialog reads it back: the dashboard's subscription
 * of origin `snapshotSchedule` (docs/deliveries.md).
 */
const SnapshotScheduleView = Type.Object(
  {
    frequency: Type.String({ description: 'daily, weekly, every_x_days, every_x_hours or every_x_minutes (the subscription routes have more)' }),
    frequencyNumber: Opt(Type.Integer({ description: 'every_x_*: how many days, hours or minutes after the last delivery' })),
    time: Opt(Type.Object({ hour: Type.Integer(), minute: Type.Integer() }, { description: 'Absent for every_x_* (they count from the last delivery)' })),
    timezone: Type.String(),
    dayOfWeek: Opt(Type.String({ description: "A weekly schedule's day, `monday` … `sunday`" })),
    daysOfWeek: Opt(Type.Array(Type.Integer(), { description: "A daily schedule's days, 1-7 (Monday = 1), when not every day" })),
    theme: Type.String(),
    mediums: Type.Object({ email: Type.Object({ enabled: Type.Boolean() }) }),
    customEmails: Type.Array(Type.String()),
    integrations: Type.Array(Type.Object({ integration_id: Type.Integer(), enabled: Type.Boolean() })),
    active: Type.Boolean(),
    subscription_id: Type.Integer({ description: 'The subscription it is (`GET /project/{id}/subscriptions`)' }),
  },
  { description: "Chartbrew's snapshot schedule, read back from the dashboard's subscription of origin `snapshotSchedule`; null without one. In single-dashboard answers, not in lists" },
);

export type SnapshotScheduleView = Static<typeof SnapshotScheduleView>;

const projectProperties = {
  id: Type.Integer(),
  team_id: Type.Integer(),
  name: Type.String(),
  brewName: Type.String({ description: 'Unique slug of the dashboard, used in report URLs' }),
  dashboardTitle: Nullable(Type.String()),
  description: Nullable(Type.String()),
  backgroundColor: Nullable(Type.String()),
  titleColor: Nullable(Type.String()),
  headerCode: Nullable(Type.String()),
  footerCode: Nullable(Type.String()),
  logo: Nullable(Type.String()),
  logoLink: Nullable(Type.String()),
  public: Type.Boolean(),
  passwordProtected: Type.Boolean(),
  timezone: Nullable(Type.String()),
  updateSchedule: Nullable(UpdateSchedule),
  lastUpdatedAt: Nullable(Timestamp),
  nextUpdateAt: Type.Union([Timestamp, Type.Null()], { description: 'When the update schedule refreshes the dashboard next (now when it is due); null without a schedule' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** A single dashboard's own fields: a list's, and Chartbrew's snapshot schedule (read per request). */
const dashboardProperties = { ...projectProperties, snapshotSchedule: Nullable(SnapshotScheduleView) };

/** A dashboard's own fields, without its charts and policies. */
export const ProjectHead = Type.Object(dashboardProperties);

/** One dashboard with its charts and filters; `SharePolicies` only for callers who may manage sharing. */
export const Project = Type.Object({
  ...dashboardProperties,
  Charts: Type.Array(Ref(Chart)),
  DashboardFilters: Type.Array(Ref(DashboardFilter), { description: 'Ordered by position, then creation' }),
  SharePolicies: Opt(Type.Array(Ref(SharePolicy))),
}, { $id: 'Project' });

export const ProjectListItem = Type.Object({
  ...projectProperties,
  Charts: Type.Array(Type.Object({ id: Type.Integer(), name: Nullable(Type.String()), layout: Type.Unknown() })),
}, { $id: 'ProjectSummary' });

/** Keys of Chartbrew's dashboard answer that Plotline does not keep, or answers elsewhere. */
const CHARTBREW_PROJECT_KEYS = ['ghost', 'lastSnapshotSentAt', 'currentSnapshot', 'Team', 'Variables', 'ProjectRoles'];

/** `brewName`, `lastUpdatedAt` and ids are server-owned: read-only keys of the answer, ignored in a body. */
export const CreateProject = WriteBody(
  { name: ProjectName, team_id: Id, ...projectFields },
  { $id: 'CreateProject', answer: [Project, ProjectListItem], ignored: CHARTBREW_PROJECT_KEYS },
);
export const UpdateProject = WriteBody(
  {
    name: Opt(ProjectName),
    ...projectFields,
    snapshotSchedule: Opt(
      Type.Unknown({
        description:
          "Chartbrew's e-mail/Slack snapshot schedule (`frequency` daily|weekly|every_x_days|every_x_hours|every_x_minutes, `frequencyNumber` for every_x_* (minutes: at least 15), `time`, `dayOfWeek`, `daysOfWeek`, `timezone`, `mediums.email.enabled`, `customEmails`, `integrations[].integration_id`): written onto the dashboard's subscription of origin `snapshotSchedule`; null or \"\" deletes it",
      }),
    ),
  },
  { $id: 'UpdateProject', answer: [Project, ProjectListItem], ignored: CHARTBREW_PROJECT_KEYS },
);
export type ProjectInput = Static<typeof UpdateProject>;
export type CreateProjectInput = Static<typeof CreateProject>;

export const ProjectParams = Type.Object({ id: Id });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const PROJECT_COMPONENTS = [CreateProject, UpdateProject, Project, ProjectListItem];
