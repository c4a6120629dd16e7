import type { ColumnType, Generated, Selectable } from 'kysely';

/*
 * Row types of Plotline's own store. Column names follow the interface spec's field names
 * (camelCase where the spec uses it) so that records map to responses without renaming.
 *
 * Portable column kinds (see migrations/):
 *   bool      boolean in Postgres, 0/1 integer in SQLite  -> read through `toBool`
 *   json      jsonb in Postgres, text in SQLite            -> written as a JSON string, read through `fromJson`
 *   timestamp timestamptz in Postgres, ISO text in SQLite  -> written as an ISO string, read through `toIso`
 *   secret    text holding an encrypted envelope (crypto/secrets.ts)
 */
type Bool = ColumnType<boolean | number, boolean | undefined, boolean>;
type BoolNullable = ColumnType<boolean | number | null, boolean | null | undefined, boolean | null>;
type Json = ColumnType<unknown, string | null | undefined, string | null>;
type Timestamp = ColumnType<Date | string, string, string>;
type TimestampNullable = ColumnType<Date | string | null, string | null | undefined, string | null>;
type Created = ColumnType<Date | string, string, never>;

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  createdAt: Created;
  expiresAt: Timestamp;
  lastUsedAt: TimestampNullable;
}

/** A team invitation; `token_hash` is the SHA-256 of the link's token (migration 0017). */
export interface TeamInvitationsTable {
  id: Generated<number>;
  team_id: number;
  created_by: number | null;
  email: string | null;
  role: string;
  projects: Json;
  canExport: Bool;
  token_hash: string;
  createdAt: Created;
  expiresAt: Timestamp;
  usedAt: TimestampNullable;
  used_by: number | null;
  revokedAt: TimestampNullable;
}

export interface ApiKeysTable {
  id: Generated<number>;
  team_id: number;
  created_by: number | null;
  name: string;
  role: string;
  projects: Json;
  token_hash: string;
  createdAt: Created;
  lastUsedAt: TimestampNullable;
}

export interface PersonalApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  role_ceiling: string | null;
  token_hash: string;
  createdAt: Created;
  lastUsedAt: TimestampNullable;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  showBranding: Bool;
  allowReportRefresh: Bool;
  allowReportExport: Bool;
  /** Deliveries may go to addresses outside the team (migration 0021). */
  allowExternalRecipients: Bool;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface TeamRolesTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  role: string;
  projects: Json;
  canExport: Bool;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface ConnectionsTable {
  id: Generated<number>;
  team_id: number;
  project_ids: Json;
  oauth_id: string | null;
  name: string;
  type: string;
  subType: string | null;
  active: Bool;
  host: string | null;
  dbName: string | null;
  port: string | null;
  username: string | null;
  password: string | null;
  srv: Bool;
  options: string | null;
  connectionString: string | null;
  authentication: string | null;
  firebaseServiceAccount: string | null;
  ssl: Bool;
  sslMode: string | null;
  sslCa: string | null;
  sslCaName: string | null;
  sslCert: string | null;
  sslCertName: string | null;
  sslKey: string | null;
  sslKeyName: string | null;
  schema: Json;
  schemaUpdatedAt: TimestampNullable;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface DatasetsTable {
  id: Generated<number>;
  team_id: number;
  project_ids: Json;
  chart_id: number | null;
  connection_id: number | null;
  main_dr_id: number | null;
  draft: Bool;
  name: string | null;
  type: string | null;
  query: string | null;
  datasetColor: string | null;
  xAxis: string | null;
  xAxisOperation: string | null;
  yAxis: string | null;
  yAxisOperation: string | null;
  dateField: string | null;
  dateFormat: string | null;
  legend: string | null;
  conditions: Json;
  fieldsSchema: Json;
  excludedFields: Json;
  configuration: Json;
  joinSettings: Json;
  /** Bumped on every change to the dataset or its data requests; part of the result-cache key. */
  version: Generated<number>;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface DataRequestsTable {
  id: Generated<number>;
  dataset_id: number;
  connection_id: number | null;
  method: string | null;
  route: string | null;
  headers: string | null;
  body: string | null;
  useGlobalHeaders: Bool;
  query: string | null;
  pagination: Bool;
  items: string | null;
  itemsLimit: number | null;
  offset: string | null;
  paginationField: string | null;
  template: string | null;
  conditions: Json;
  configuration: Json;
  variables: Json;
  transform: Json;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface VariableBindingsTable {
  id: Generated<number>;
  team_id: number;
  entity_type: string;
  entity_id: string;
  name: string;
  type: string;
  default_value: string | null;
  required: Bool;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface ProjectsTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  brewName: string;
  dashboardTitle: string | null;
  description: string | null;
  backgroundColor: string | null;
  titleColor: string | null;
  headerCode: string | null;
  footerCode: string | null;
  logo: string | null;
  logoLink: string | null;
  public: Bool;
  passwordProtected: Bool;
  password_hash: string | null;
  timezone: string | null;
  updateSchedule: Json;
  lastUpdatedAt: TimestampNullable;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface ChartsTable {
  id: Generated<number>;
  project_id: number;
  name: string | null;
  type: string | null;
  subType: string | null;
  public: Bool;
  shareable: Bool;
  chartData: Json;
  chartDataUpdated: TimestampNullable;
  /** `{code, message, at}` of the latest refresh when it failed (0022). */
  lastError: Json;
  displayLegend: Bool;
  pointRadius: number | null;
  dataLabels: Bool;
  startDate: TimestampNullable;
  endDate: TimestampNullable;
  dateVarsFormat: string | null;
  includeZeros: Bool;
  currentEndDate: Bool;
  fixedStartDate: Bool;
  timeInterval: Generated<string>;
  autoUpdate: number | null;
  lastAutoUpdate: TimestampNullable;
  draft: Bool;
  mode: Generated<string>;
  maxValue: number | null;
  minValue: number | null;
  disabledExport: BoolNullable;
  onReport: Bool;
  xLabelTicks: string | null;
  stacked: Bool;
  stackPercent: Bool;
  missingValues: Generated<string>;
  horizontal: Bool;
  showGrowth: Bool;
  invertGrowth: Bool;
  layout: Json;
  isLogarithmic: Bool;
  content: string | null;
  ranges: Json;
  dashedLastPoint: Bool;
  defaultRowsPerPage: number | null;
  dashboardOrder: number | null;
  /** Chartbrew's v2 chart spec as last saved; NULL = derived from the dataset configs when read. */
  visualization: Json;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface ChartDatasetConfigsTable {
  id: string;
  chart_id: number;
  dataset_id: number;
  xAxis: string | null;
  xAxisOperation: string | null;
  yAxis: string | null;
  yAxisOperation: string | null;
  dateField: string | null;
  dateFormat: string | null;
  conditions: Json;
  formula: string | null;
  datasetColor: string | null;
  fillColor: Json;
  fill: Bool;
  multiFill: Bool;
  legend: string | null;
  pointRadius: number | null;
  excludedFields: Json;
  sort: string | null;
  columnsOrder: Json;
  order: number | null;
  maxRecords: number | null;
  goal: number | null;
  configuration: Json;
  /** A field splitting the config's series by its values; NULL: one series. */
  breakdown: string | null;
  /** The breakdown's largest N series (1-20); NULL: 20. */
  breakdownLimit: number | null;
  /** The series past the limit summed into one more (count and sum only). */
  breakdownOther: Bool;
  /** That series' label; NULL: "Other". */
  breakdownOtherLabel: string | null;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface SharePoliciesTable {
  id: Generated<number>;
  team_id: number;
  entity_type: string;
  entity_id: number;
  share_string: string;
  visibility: Generated<string>;
  params: Json;
  allow_params: Bool;
  expires_at: TimestampNullable;
  /** Bumped by revoke; tokens carry the version they were issued under. */
  token_version: Generated<number>;
  createdAt: Created;
  updatedAt: Timestamp;
}

/** One row per (dashboard or chart, period): whoever inserts it runs the refresh. */
export interface RefreshClaimsTable {
  entity_type: string;
  entity_id: number;
  period: string;
  claimedAt: Timestamp;
  /** `enqueued` -> `running` -> `done` | `failed`. */
  state: ColumnType<string, string | undefined, string>;
  team_id: number | null;
  /** When it was last handed to the queue. */
  enqueuedAt: TimestampNullable;
  /** When a worker took it. */
  startedAt: TimestampNullable;
  /** Times it was handed to the queue (of kind `subscription`: times its delivery started, 1 + takeovers). */
  attempts: ColumnType<number, number | undefined, number>;
}

export interface RefreshRunsTable {
  id: Generated<number>;
  team_id: number;
  project_id: number;
  /** Set for a single-chart refresh (auto-update, manual run); null for a whole dashboard. */
  chart_id: number | null;
  trigger: string;
  status: string;
  startedAt: Timestamp;
  durationMs: number;
  errorCode: string | null;
  errorMessage: string | null;
}

/** A chart saved as a reusable template (its fields, dataset configs and visualization in `model`). */
export interface ChartTemplatesTable {
  id: Generated<number>;
  team_id: number;
  project_id: number | null;
  created_by: number | null;
  name: string;
  description: string | null;
  /** `chart` or `dashboard` (migration 0023). */
  kind: Generated<string>;
  model: Json;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface RefreshRunChartsTable {
  id: Generated<number>;
  run_id: number;
  project_id: number;
  chart_id: number;
  status: string;
  paths: Json;
  rowsRead: number;
  cacheHit: Bool;
  durationMs: number;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface AlertsTable {
  id: Generated<number>;
  team_id: number;
  project_id: number;
  chart_id: number;
  cdc_id: string | null;
  name: string | null;
  type: string;
  rules: Json;
  recipients: Json;
  mediums: Json;
  /** Encrypted HMAC key of the webhook medium (secret). */
  webhook_secret: string | null;
  active: Bool;
  timeout: number;
  lastTriggeredAt: TimestampNullable;
  createdAt: Created;
  updatedAt: Timestamp;
}

export interface AlertEventsTable {
  id: Generated<number>;
  alert_id: number;
  chart_id: number;
  run_id: number | null;
  value: number | null;
  message: string;
  deliveries: Json;
  createdAt: Created;
}

/** A dashboard's filter (migration 0015); its `configuration` is validated by the dashboards context. */
export interface DashboardFiltersTable {
  id: string;
  project_id: number;
  configuration: Json;
  onReport: Bool;
  position: number;
  createdAt: Created;
  updatedAt: Timestamp;
}

/** A team's reusable query text, for connections of one type (migration 0018). */
export interface SavedQueriesTable {
  id: Generated<number>;
  team_id: number;
  /** Who saved it; null once that user is gone. */
  user_id: number | null;
  summary: string | null;
  query: string | null;
  type: string | null;
  createdAt: Created;
  updatedAt: Timestamp;
}

/** An alert channel of a team: a webhook, or a Slack incoming webhook (`slackMode`). */
export interface IntegrationsTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  type: string;
  /** Encrypted target URL (secret: Slack's and most webhooks' URLs carry their credential). */
  url: string;
  slackMode: Bool;
  /** Encrypted HMAC key of the signature header (secret). */
  webhook_secret: string;
  createdAt: Created;
  updatedAt: Timestamp;
}

/** Which integrations an alert notifies. */
export interface AlertIntegrationsTable {
  id: Generated<number>;
  alert_id: number;
  integration_id: number;
  enabled: Bool;
  createdAt: Created;
  updatedAt: Timestamp;
}

/**
 * Per dashboard, a counter that triggers move on every change to its charts, their dataset configs
 * and its own share policies (migration 0013), and its filters (0015). No row: nothing changed since the migration (0).
 */
export interface DashboardViewVersionsTable {
  project_id: number;
  version: number;
}

/** A scheduled delivery of a dashboard or one chart (migration 0021). */
export interface SubscriptionsTable {
  id: Generated<number>;
  team_id: number;
  project_id: number;
  chart_id: number | null;
  name: string | null;
  schedule: Json;
  format: string;
  theme: Generated<string>;
  filters: Json;
  recipients: Json;
  integration_ids: Json;
  /** Encrypted JSON array of Slack incoming-webhook URLs (secret). */
  slack_urls: string | null;
  /** Encrypted webhook URL (secret). */
  webhook_url: string | null;
  /** Encrypted HMAC key of the webhook signature (secret). */
  webhook_secret: string | null;
  /** `api`, or `snapshotSchedule` for the one Chartbrew's `PUT /project/{id}` field writes. */
  origin: Generated<string>;
  active: Bool;
  lastSentAt: TimestampNullable;
  created_by: number | null;
  createdAt: Created;
  updatedAt: Timestamp;
}

/** One delivery of a subscription: what went where, and what became of it. */
export interface SubscriptionRunsTable {
  id: Generated<number>;
  subscription_id: number;
  team_id: number;
  trigger: string;
  period: string | null;
  status: string;
  startedAt: Timestamp;
  durationMs: number;
  dataUpdatedAt: TimestampNullable;
  deliveries: Json;
  errorMessage: string | null;
  /** While `running`: when the delivering process last said it is still at it. */
  heartbeatAt: TimestampNullable;
  /** The interrupted run of the same period this one resumed. */
  resumed_from: number | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  personal_api_keys: PersonalApiKeysTable;
  teams: TeamsTable;
  team_roles: TeamRolesTable;
  team_invitations: TeamInvitationsTable;
  connections: ConnectionsTable;
  datasets: DatasetsTable;
  data_requests: DataRequestsTable;
  variable_bindings: VariableBindingsTable;
  projects: ProjectsTable;
  charts: ChartsTable;
  chart_dataset_configs: ChartDatasetConfigsTable;
  chart_templates: ChartTemplatesTable;
  share_policies: SharePoliciesTable;
  dashboard_filters: DashboardFiltersTable;
  dashboard_view_versions: DashboardViewVersionsTable;
  refresh_claims: RefreshClaimsTable;
  refresh_runs: RefreshRunsTable;
  refresh_run_charts: RefreshRunChartsTable;
  alerts: AlertsTable;
  alert_events: AlertEventsTable;
  saved_queries: SavedQueriesTable;
  integrations: IntegrationsTable;
  alert_integrations: AlertIntegrationsTable;
  subscriptions: SubscriptionsTable;
  subscription_runs: SubscriptionRunsTable;
}

export type UserRow = Selectable<UsersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type TeamRoleRow = Selectable<TeamRolesTable>;
export type TeamInvitationRow = Selectable<TeamInvitationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type PersonalApiKeyRow = Selectable<PersonalApiKeysTable>;
