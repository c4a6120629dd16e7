import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/auth.js';
import { Deleted, Ref } from '../../platform/http-schemas.js';
import type { FilterRunsService } from './dashboard-filter-runs.js';
import {
  CreateDashboardFilter,
  DashboardFilter,
  FilterDashboardRun,
  FilteredCharts,
  FilterParams,
  FilterReach,
  FilterReachRequest,
  OrderDashboardFilters,
  UpdateDashboardFilter,
  type CreateFilterInput,
} from './dashboard-filters-schemas.js';
import type { DashboardFiltersService } from './dashboard-filters-service.js';
import { ProjectParams } from './projects-schemas.js';
import type { ChartFailure } from './share-viewer.js';

/** Request examples: the last 30 days, and a country dropdown fed by a dataset's `country` field. */
const dateExample: CreateFilterInput = { configuration: { type: 'date', preset: 'last_30_days', label: 'Period' }, onReport: true };
const fieldExample: CreateFilterInput = {
  configuration: { type: 'field', field: 'country', operator: 'is', value: 'FR', label: 'Country', valuesFrom: { datasetId: 7, field: 'country' } },
  onReport: true,
};
const variableExample: CreateFilterInput = { configuration: { type: 'variable', variable: 'country', value: 'FR', dataType: 'string', label: 'Country', allowValueChange: true } };

/** Managed filters of a dashboard and the members' dashboard-wide run (authenticated scope). */
export const dashboardFilterRoutes: FastifyPluginAsyncTypebox<{ filters: DashboardFiltersService; runs: FilterRunsService }> = async (app, { filters, runs }) => {
  const tags = ['dashboard filters'];

  app.post(
    '/project/:id/dashboard-filter',
    {
      schema: {
        tags,
        operationId: 'createDashboardFilter',
        summary: "Add a filter after the dashboard's last one (editors: teamOwner, teamAdmin, projectAdmin, projectEditor)",
        params: ProjectParams,
        body: Ref(CreateDashboardFilter, { examples: [dateExample, fieldExample, variableExample] }),
        response: { 200: Ref(DashboardFilter) },
      },
    },
    async (request) => filters.create(actorOf(request), request.params.id, request.body),
  );

  app.get(
    '/project/:id/dashboard-filters',
    {
      schema: { tags, operationId: 'listDashboardFilters', summary: "The dashboard's filters by position, then creation", params: ProjectParams, response: { 200: Type.Array(Ref(DashboardFilter)) } },
    },
    async (request) => filters.list(actorOf(request), request.params.id),
  );

  app.put(
    '/project/:id/dashboard-filters/order',
    {
      schema: {
        tags,
        operationId: 'orderDashboardFilters',
        summary: 'Put the filters in a new order: every filter of the dashboard once',
        params: ProjectParams,
        body: Ref(OrderDashboardFilters, { examples: [{ filterIds: ['0b6f3c1e-6a53-4d5c-9b8f-2f1f1f7c0a11', '5d2e9a40-1c1b-4a4e-8d0e-7c3b1e2f4a55'] }] }),
        response: { 200: Type.Array(Ref(DashboardFilter)) },
      },
    },
    async (request) => filters.reorder(actorOf(request), request.params.id, request.body.filterIds),
  );

  app.get(
    '/project/:id/dashboard-filter/:fid',
    { schema: { tags, operationId: 'getDashboardFilter', summary: 'One filter of the dashboard', params: FilterParams, response: { 200: Ref(DashboardFilter) } } },
    async (request) => filters.get(actorOf(request), request.params.id, request.params.fid),
  );

  app.put(
    '/project/:id/dashboard-filter/:fid',
    {
      schema: {
        tags,
        operationId: 'updateDashboardFilter',
        summary: 'Replace the configuration and/or change onReport',
        params: FilterParams,
        body: Ref(UpdateDashboardFilter, { examples: [{ configuration: { type: 'date', preset: 'this_quarter' } }, { onReport: false }] }),
        response: { 200: Ref(DashboardFilter) },
      },
    },
    async (request) => filters.update(actorOf(request), request.params.id, request.params.fid, request.body),
  );

  app.delete(
    '/project/:id/dashboard-filter/:fid',
    { schema: { tags, operationId: 'deleteDashboardFilter', summary: 'Delete a filter', params: FilterParams, response: { 200: Ref(Deleted) } } },
    async (request) => {
      await filters.delete(actorOf(request), request.params.id, request.params.fid);
      return { deleted: true };
    },
  );

  // A state rather than the saved filters: the editor asks while a filter is being written,
  // before it is saved or has a value, and the same body serves the bar's saved filters.
  app.post(
    '/project/:id/filter-reach',
    {
      schema: {
        tags,
        operationId: 'dashboardFilterReach',
        summary: 'Which charts each filter of a state would narrow once it has a value, and which not; no source is queried (members)',
        params: ProjectParams,
        body: Ref(FilterReachRequest, {
          examples: [{ filters: [{ type: 'date', id: 'period' }, { type: 'field', id: 'country', field: 'country' }, { type: 'variable', id: 'region', variable: 'region' }] }],
        }),
        response: { 200: Ref(FilterReach) },
      },
    },
    async (request) => runs.reach(actorOf(request), request.params.id, { filters: request.body.filters, variables: request.body.variables }),
  );

  app.post(
    '/project/:id/filter',
    {
      schema: {
        tags,
        operationId: 'filterDashboard',
        summary: "Every chart of the dashboard (or those of chartIds) computed for a filter state, never saved; a chart that fails is an entry with its error",
        params: ProjectParams,
        body: Ref(FilterDashboardRun, {
          examples: [{ filters: [{ type: 'date', preset: 'last_30_days' }, { field: 'country', operator: 'is', value: 'FR' }], variables: { country: 'FR' } }],
        }),
        response: { 200: Ref(FilteredCharts) },
      },
    },
    async (request) => {
      const failures: ChartFailure[] = [];
      try {
        const { body } = request;
        const input = { filters: body.filters, variables: body.variables, chartIds: body.chartIds };
        return await runs.dashboard(actorOf(request), request.params.id, input, failures);
      } finally {
        for (const { chartId, error } of failures) request.log.warn({ err: error, chartId }, 'chart could not be computed for a filter state');
      }
    },
  );
};
