import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { filterRunQuery } from '../api/queries';
import type { FilterRunBody } from '../api/types';
import { useSettled } from '../settled';
import type { FilterRunState } from './FilterBar';

const NO_FILTERS: FilterRunBody = { filters: [] };

/**
 * One chart as the filtered run answered it: its data for the filters, or why it could not be
 * computed; `filteredBy` the ids of the filters that narrow it, of those the run was sent (`sent`).
 */
export interface FilteredChart {
  chartData: unknown;
  /** When the run computed it (or the result cache did). */
  chartDataUpdated?: string | null;
  error?: { code: string; message: string };
  filteredBy: string[];
  sent: ReadonlySet<string>;
}

/**
 * The dashboard's charts for the filter state being tried: one batch request a moment after the
 * last change (`POST /project/{id}/filter`), never saved. While a new state runs, the cards keep
 * the previous answer; without any filter value (`body` null) they show their saved data.
 */
export function useFilterRun(projectId: number, body: FilterRunBody | null): { run: FilterRunState; charts: Map<number, FilteredChart> | null } {
  const { settled, current } = useSettled(body, 300);
  const query = useQuery({ ...filterRunQuery(projectId, settled ?? NO_FILTERS), enabled: body !== null && settled !== null && current, placeholderData: keepPreviousData });
  const answer = query.data;
  // One map per answer: the cards redraw when the answer changes, not on every render.
  const charts = useMemo(() => {
    if (!answer) return null;
    const sent = new Set(answer.body.filters.flatMap((filter) => (typeof filter.id === 'string' ? [filter.id] : [])));
    return new Map(
      answer.charts.map((chart): [number, FilteredChart] => [chart.id, 'chartData' in chart ? { chartData: chart.chartData, chartDataUpdated: chart.chartDataUpdated, filteredBy: chart.filteredBy, sent } : { chartData: null, error: chart.error, filteredBy: [], sent }]),
    );
  }, [answer]);
  if (body === null) return { run: { state: 'idle', applied: 0, error: null }, charts: null };
  const state = !current || query.isFetching ? 'running' : query.isError ? 'error' : answer ? 'ready' : 'running';
  return { run: { state, applied: body.filters.length, error: state === 'error' ? query.error : null }, charts: state === 'error' ? null : charts };
}
