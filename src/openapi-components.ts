import type { TSchema } from 'typebox';
import { ALERT_COMPONENTS } from './modules/automation/alerts-schemas.js';
import { INTEGRATION_COMPONENTS } from './modules/automation/integrations-schemas.js';
import { SUBSCRIPTION_COMPONENTS } from './modules/automation/deliveries-schemas.js';
import { REFRESH_COMPONENTS } from './modules/automation/refreshes-schemas.js';
import { CHART_COMPONENTS } from './modules/dashboards/charts-schemas.js';
import { DASHBOARD_FILTER_COMPONENTS } from './modules/dashboards/dashboard-filters-schemas.js';
import { CHART_TEMPLATE_COMPONENTS } from './modules/dashboards/chart-templates-schemas.js';
import { DASHBOARD_TEMPLATE_COMPONENTS } from './modules/dashboards/dashboard-templates-schemas.js';
import { PROJECT_COMPONENTS } from './modules/dashboards/projects-schemas.js';
import { PUBLIC_SHARE_COMPONENTS } from './modules/dashboards/sharing-public-schemas.js';
import { SHARING_COMPONENTS } from './modules/dashboards/sharing-schemas.js';
import { CONNECTION_COMPONENTS } from './modules/data/connections-schemas.js';
import { DATASET_RUN_COMPONENTS } from './modules/data/dataset-runs-schemas.js';
import { DATASET_VALUES_COMPONENTS } from './modules/data/dataset-values-schemas.js';
import { DATASET_COMPONENTS } from './modules/data/datasets-schemas.js';
import { SAVED_QUERY_COMPONENTS } from './modules/data/saved-queries-schemas.js';
import { API_KEY_COMPONENTS } from './modules/identity/api-keys-schemas.js';
import { INVITATION_COMPONENTS } from './modules/identity/invitations-schemas.js';
import { TEAM_COMPONENTS } from './modules/identity/teams-schemas.js';
import { USER_COMPONENTS } from './modules/identity/users-schemas.js';
import { SNAPSHOT_COMPONENTS } from './modules/dashboards/snapshots-schemas.js';
import { HTTP_COMPONENTS } from './platform/http-schemas.js';
import { UpdateCheck } from './platform/version-routes.js';

/**
 * Every named schema of the HTTP contract (a schema with an `$id`). src/app.ts registers them on
 * the app and on its validators, so that routes refer to them with `Ref()` (`$ref: '<$id>#'`), and
 * /openapi.json publishes each as `components.schemas[$id]`: the names the editor's types use.
 */
export const COMPONENT_SCHEMAS: readonly TSchema[] = [
  ...HTTP_COMPONENTS,
  UpdateCheck,
  ...USER_COMPONENTS,
  ...TEAM_COMPONENTS,
  ...INVITATION_COMPONENTS,
  ...API_KEY_COMPONENTS,
  ...CONNECTION_COMPONENTS,
  ...DATASET_COMPONENTS,
  ...DATASET_RUN_COMPONENTS,
  ...SAVED_QUERY_COMPONENTS,
  ...DATASET_VALUES_COMPONENTS,
  ...CHART_COMPONENTS,
  ...DASHBOARD_FILTER_COMPONENTS,
  ...CHART_TEMPLATE_COMPONENTS,
  ...DASHBOARD_TEMPLATE_COMPONENTS,
  ...PROJECT_COMPONENTS,
  ...SHARING_COMPONENTS,
  ...PUBLIC_SHARE_COMPONENTS,
  ...SNAPSHOT_COMPONENTS,
  ...ALERT_COMPONENTS,
  ...INTEGRATION_COMPONENTS,
  ...SUBSCRIPTION_COMPONENTS,
  ...REFRESH_COMPONENTS,
];
