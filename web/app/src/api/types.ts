import type { paths } from './schema';

/**
 * The API's shapes the screens name, read from the operations of the generated OpenAPI types (the
 * same ones openapi-fetch infers a call's answer from). Every name a screen uses is defined here
 * and nowhere else, so pointing one at a named component schema is a change to this file alone.
 */

type Method = 'get' | 'post' | 'put' | 'delete';

/** The JSON an operation answers with on success. */
type Answer<P extends keyof paths, M extends Method> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

/** The JSON body an operation takes. */
type Body<P extends keyof paths, M extends Method> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer T } } } ? T : never;

export type User = Answer<'/user/me', 'get'>;
export type Team = Answer<'/team', 'get'>[number];
export type Role = Team['TeamRoles'][number]['role'];
export type PersonalApiKey = Answer<'/user/apikey', 'get'>[number];

export type Project = Answer<'/project/{id}', 'get'>;
export type ScheduleUpdate = NonNullable<Body<'/project/{id}', 'put'>['updateSchedule']>;
export type SharePolicy = Answer<'/project/{id}/share/policy', 'get'>[number];

export type Chart = Answer<'/project/{project_id}/chart/{id}', 'get'>;
export type ChartType = Body<'/project/{project_id}/chart/quick-create', 'post'>['type'];
export type TimeInterval = NonNullable<Body<'/project/{project_id}/chart/quick-create', 'post'>['timeInterval']>;
export type ChartPreview = Body<'/project/{project_id}/chart/preview', 'post'>;
type ChartDatasetConfigBody = Body<'/project/{project_id}/chart/{id}/chart-dataset-config', 'post'>;
export type Condition = NonNullable<ChartDatasetConfigBody['conditions']>[number];
export type Operation = NonNullable<ChartDatasetConfigBody['yAxisOperation']>;

export type Dataset = Answer<'/team/{team_id}/datasets/{dataset_id}', 'get'>;
export type DataRequest = Answer<'/team/{team_id}/datasets/{dataset_id}/dataRequests', 'get'>[number];
export type Join = NonNullable<NonNullable<Body<'/team/{team_id}/datasets/{dataset_id}', 'put'>['joinSettings']>['joins']>[number];
export type RunResult = Answer<'/team/{team_id}/datasets/{dataset_id}/request', 'post'>;
export type RunMeta = RunResult['meta'];

export type Connection = Answer<'/team/{team_id}/connections', 'get'>[number];
export type ConnectionBody = Body<'/team/{team_id}/connections', 'post'>;
export type ConnectionProvider = Answer<'/connection-providers', 'get'>[number];
