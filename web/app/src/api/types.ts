import type { components, paths } from './schema';

/**
 * The API's shapes the screens name: the server's named schemas (`components.schemas` of
 * /openapi.json), as generated into ./schema.d.ts by `npx tsx scripts/openapi.ts`. Every name a
 * screen uses is defined here and nowhere else.
 */
type Schemas = components['schemas'];

export type User = Schemas['Me'];
export type Team = Schemas['Team'];
export type Role = Team['TeamRoles'][number]['role'];
export type PersonalApiKey = Schemas['PersonalApiKey'];
export type Member = paths['/team/{team_id}/members']['get']['responses'][200]['content']['application/json'][number];

export type Project = Schemas['Project'];
export type ScheduleUpdate = NonNullable<Schemas['UpdateProject']['updateSchedule']>;
export type SharePolicy = Schemas['SharePolicy'];

export type Chart = Schemas['Chart'];
export type ChartType = Schemas['QuickCreateChart']['type'];
export type TimeInterval = NonNullable<Schemas['QuickCreateChart']['timeInterval']>;
export type ChartPreview = Schemas['PreviewChart'];
export type Condition = NonNullable<Schemas['CreateChartDatasetConfig']['conditions']>[number];
export type Operation = NonNullable<Schemas['CreateChartDatasetConfig']['yAxisOperation']>;
export type ChartAlert = Schemas['Alert'];

export type Dataset = Schemas['Dataset'];
export type DataRequest = Schemas['DataRequest'];
export type Join = NonNullable<NonNullable<Schemas['UpdateDataset']['joinSettings']>['joins']>[number];
export type RunResult = Schemas['DatasetRun'];
export type RunMeta = Schemas['RunMeta'];
export type DraftBinding = NonNullable<Schemas['DraftRunInput']['variableBindings']>[number];

export type Connection = Schemas['Connection'];
export type ConnectionBody = Schemas['CreateConnection'];
export type ConnectionProvider = Schemas['ConnectionProvider'];

export type DashboardFilter = Schemas['DashboardFilter'];
export type FilterConfiguration = Schemas['DashboardFilterConfiguration'];
export type FilterRunBody = Schemas['FilterDashboardRun'];
export type FilterReachBody = Schemas['FilterReachRequest'];
