import { queryOptions } from '@tanstack/react-query';
import { api, ApiError, ok } from './client';
import { rowsOf } from './narrow';
import type { ChartPreview, FilterReachBody, FilterRunBody } from './types';

const team = (teamId: number) => ['team', teamId] as const;
const datasets = (teamId: number) => [...team(teamId), 'datasets'] as const;
const dataset = (teamId: number, datasetId: number) => [...datasets(teamId), datasetId] as const;
const project = (projectId: number) => ['project', projectId] as const;
const charts = (projectId: number) => [...project(projectId), 'charts'] as const;

/**
 * Every query key of the editor. Keys nest: a team's datasets sit under the team, a dataset's
 * requests and columns under the dataset, a dashboard's charts and share policies under the
 * dashboard, so invalidating a key refreshes everything below it.
 */
export const keys = {
  me: ['me'] as const,
  teams: ['teams'] as const,
  providers: ['connection-providers'] as const,
  personalKeys: ['personal-keys'] as const,
  projects: (teamId: number) => [...team(teamId), 'projects'] as const,
  connections: (teamId: number) => [...team(teamId), 'connections'] as const,
  members: (teamId: number) => [...team(teamId), 'members'] as const,
  teamKeys: (teamId: number) => [...team(teamId), 'api-keys'] as const,
  datasets,
  dataset,
  datasetColumns: (teamId: number, datasetId: number) => [...dataset(teamId, datasetId), 'columns'] as const,
  dataRequests: (teamId: number, datasetId: number) => [...dataset(teamId, datasetId), 'requests'] as const,
  project,
  charts,
  chart: (projectId: number, chartId: number) => [...charts(projectId), chartId] as const,
  sharePolicies: (projectId: number) => [...project(projectId), 'share-policies'] as const,
  dashboardFilters: (projectId: number) => [...project(projectId), 'dashboard-filters'] as const,
  // Under the dashboard: a refreshed or edited chart runs the filtered view again.
  filterRuns: (projectId: number) => [...project(projectId), 'filter-run'] as const,
  filterRun: (projectId: number, body: FilterRunBody) => [...project(projectId), 'filter-run', body] as const,
  // Under the dashboard too: a chart changed or added may change which filters reach what.
  filterReach: (projectId: number, body: FilterReachBody) => [...project(projectId), 'filter-reach', body] as const,
  // Keyed by all they are computed from, apart from the dataset and dashboard keys: saving a dataset
  // or a chart does not read them again, another query or form does.
  requestColumns: (teamId: number, datasetId: number, request: RequestSource) => ['request-columns', teamId, datasetId, request] as const,
  chartPreview: (projectId: number, body: ChartPreview) => ['chart-preview', projectId, body] as const,
  filterValues: (teamId: number, datasetId: number, field: string, search: string) => ['filter-values', teamId, datasetId, field, search] as const,
};

/** Who is signed in; null when nobody is (a 401 is an answer here, not an error). */
export const meQuery = queryOptions({
  queryKey: keys.me,
  queryFn: async () => {
    try {
      return await ok(api.GET('/user/me'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
});

export const teamsQuery = queryOptions({ queryKey: keys.teams, queryFn: () => ok(api.GET('/team')) });

export const providersQuery = queryOptions({ queryKey: keys.providers, queryFn: () => ok(api.GET('/connection-providers')) });

export const personalKeysQuery = queryOptions({ queryKey: keys.personalKeys, queryFn: () => ok(api.GET('/user/apikey')) });

export const projectsQuery = (teamId: number) =>
  queryOptions({ queryKey: keys.projects(teamId), queryFn: () => ok(api.GET('/project/team/{team_id}', { params: { path: { team_id: teamId } } })) });

export const connectionsQuery = (teamId: number) =>
  queryOptions({ queryKey: keys.connections(teamId), queryFn: () => ok(api.GET('/team/{team_id}/connections', { params: { path: { team_id: teamId } } })) });

export const membersQuery = (teamId: number) =>
  queryOptions({ queryKey: keys.members(teamId), queryFn: () => ok(api.GET('/team/{team_id}/members', { params: { path: { team_id: teamId } } })) });

export const teamKeysQuery = (teamId: number) =>
  queryOptions({ queryKey: keys.teamKeys(teamId), queryFn: () => ok(api.GET('/team/{team_id}/apikey', { params: { path: { team_id: teamId } } })) });

export const datasetsQuery = (teamId: number) =>
  queryOptions({ queryKey: keys.datasets(teamId), queryFn: () => ok(api.GET('/team/{team_id}/datasets', { params: { path: { team_id: teamId } } })) });

export const datasetQuery = (teamId: number, datasetId: number) =>
  queryOptions({
    queryKey: keys.dataset(teamId, datasetId),
    queryFn: () => ok(api.GET('/team/{team_id}/datasets/{dataset_id}', { params: { path: { team_id: teamId, dataset_id: datasetId } } })),
  });

export const dataRequestsQuery = (teamId: number, datasetId: number) =>
  queryOptions({
    queryKey: keys.dataRequests(teamId, datasetId),
    queryFn: () => ok(api.GET('/team/{team_id}/datasets/{dataset_id}/dataRequests', { params: { path: { team_id: teamId, dataset_id: datasetId } } })),
  });

/** A dataset's column names, read from a small run of it. */
export const datasetColumnsQuery = (teamId: number, datasetId: number) =>
  queryOptions({
    queryKey: keys.datasetColumns(teamId, datasetId),
    queryFn: async () => {
      const result = await ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path: { team_id: teamId, dataset_id: datasetId } }, body: { limit: 20 } }));
      return columnNames(result.meta.columns, result.data);
    },
  });

/** A dataset column with what its values are; `date` when the source types it so or its sample values are all dates. */
export interface ColumnInfo {
  name: string;
  isDate: boolean;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

/**
 * A dataset's columns with their types (`meta.columns` of a small run). A text column whose values
 * are all ISO dates counts as a date (SQLite and JSON sources hand dates over as text).
 */
export const datasetColumnInfoQuery = (teamId: number, datasetId: number) =>
  queryOptions({
    queryKey: [...keys.datasetColumns(teamId, datasetId), 'types'],
    queryFn: async (): Promise<ColumnInfo[]> => {
      const result = await ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path: { team_id: teamId, dataset_id: datasetId } }, body: { limit: 20 } }));
      const rows = rowsOf(result.data);
      const sampled = (name: string) => {
        const values = rows.map((row) => row[name]).filter((v) => v !== null && v !== undefined);
        return values.length > 0 && values.every((v) => typeof v === 'string' && ISO_DATE.test(v));
      };
      const typed = result.meta.columns.length > 0 ? result.meta.columns : Object.keys(rows[0] ?? {}).map((name) => ({ name, type: 'unknown' }));
      return typed.map((c) => ({ name: c.name, isDate: c.type === 'date' || ((c.type === 'string' || c.type === 'unknown') && sampled(c.name)) }));
    },
  });

/** What a data request's columns are read from: its saved query on its connection. */
export interface RequestSource {
  id: number;
  connectionId: number | null;
  query: string;
}

/** A data request's column names, read from a small run of its saved query. */
export const requestColumnsQuery = (teamId: number, datasetId: number, request: RequestSource) =>
  queryOptions({
    queryKey: keys.requestColumns(teamId, datasetId, request),
    queryFn: async () => {
      const { dataRequest } = await ok(
        api.POST('/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/request', { params: { path: { team_id: teamId, dataset_id: datasetId, id: request.id } }, body: { limit: 20 } }),
      );
      return columnNames(dataRequest.meta.columns, dataRequest.responseData.data);
    },
  });

/** The columns the source named, else the keys of the first row. */
function columnNames(columns: { name: string }[], data: unknown): string[] {
  return columns.length > 0 ? columns.map((c) => c.name) : Object.keys(rowsOf(data)[0] ?? {});
}

export const projectQuery = (projectId: number) =>
  queryOptions({ queryKey: keys.project(projectId), queryFn: () => ok(api.GET('/project/{id}', { params: { path: { id: projectId } } })) });

export const chartsQuery = (projectId: number) =>
  queryOptions({ queryKey: keys.charts(projectId), queryFn: () => ok(api.GET('/project/{project_id}/chart', { params: { path: { project_id: projectId } } })) });

export const chartQuery = (projectId: number, chartId: number) =>
  queryOptions({ queryKey: keys.chart(projectId, chartId), queryFn: () => ok(api.GET('/project/{project_id}/chart/{id}', { params: { path: { project_id: projectId, id: chartId } } })) });

export const sharePoliciesQuery = (projectId: number) =>
  queryOptions({ queryKey: keys.sharePolicies(projectId), queryFn: () => ok(api.GET('/project/{id}/share/policy', { params: { path: { id: projectId } } })) });

/**
 * The data of an unsaved chart (`POST …/chart/preview`). The body is part of the key: an answer
 * belongs to the form it was asked for, and a request whose form changed meanwhile is cancelled.
 */
export const chartPreviewQuery = (projectId: number, body: ChartPreview) =>
  queryOptions({
    queryKey: keys.chartPreview(projectId, body),
    queryFn: async ({ signal }) => {
      const answer = await ok(api.POST('/project/{project_id}/chart/preview', { params: { path: { project_id: projectId } }, body, signal }));
      return { body, chartData: answer.chartData };
    },
  });

export const dashboardFiltersQuery = (projectId: number) =>
  queryOptions({ queryKey: keys.dashboardFilters(projectId), queryFn: () => ok(api.GET('/project/{id}/dashboard-filters', { params: { path: { id: projectId } } })) });

/**
 * Every chart of the dashboard computed for a filter state, in one request (`POST /project/{id}/filter`);
 * nothing is saved. The state is part of the key: identical states share an answer, which keeps
 * the state it answers (a card kept on the previous answer while a new one runs says what that one was for).
 */
export const filterRunQuery = (projectId: number, body: FilterRunBody) =>
  queryOptions({
    queryKey: keys.filterRun(projectId, body),
    queryFn: async ({ signal }) => ({ body, ...(await ok(api.POST('/project/{id}/filter', { params: { path: { id: projectId } }, body, signal }))) }),
  });

/** Which charts each filter of a state would narrow once it has a value (`POST /project/{id}/filter-reach`); no source is queried. */
export const filterReachQuery = (projectId: number, body: FilterReachBody) =>
  queryOptions({
    queryKey: keys.filterReach(projectId, body),
    queryFn: ({ signal }) => ok(api.POST('/project/{id}/filter-reach', { params: { path: { id: projectId } }, body, signal })),
  });

/** The distinct values of a dataset's field that match a search, for a filter's list (at most 100). */
export const filterValuesQuery = (teamId: number, datasetId: number, field: string, search: string) =>
  queryOptions({
    queryKey: keys.filterValues(teamId, datasetId, field, search),
    queryFn: ({ signal }) =>
      ok(api.GET('/team/{team_id}/datasets/{dataset_id}/values', { params: { path: { team_id: teamId, dataset_id: datasetId }, query: { field, search, limit: 100 } }, signal })),
    staleTime: 60_000,
  });
