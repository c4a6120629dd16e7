import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { filterReachQuery } from '../api/queries';
import type { Chart, FilterReachBody } from '../api/types';
import { useSettled } from '../settled';

/** The charts one filter would narrow once it has a value, and those it would leave as they are, by name. */
export interface FilterReach {
  reaches: string[];
  not: string[];
}

const NO_FILTERS: FilterReachBody = { filters: [] };

/**
 * Which charts each filter of `body` would narrow, by filter id, as the server says
 * (`POST /project/{id}/filter-reach`, the rule of a filtered run's `filteredBy`), a moment after the
 * last change; null until it has answered. Markdown charts are in neither list.
 */
export function useFilterReach(projectId: number, charts: readonly Chart[], body: FilterReachBody | null): { reach: Map<string, FilterReach> | null; error: boolean } {
  const { settled } = useSettled(body, 300);
  const query = useQuery({ ...filterReachQuery(projectId, settled ?? NO_FILTERS), enabled: body !== null && settled !== null && settled.filters.length > 0, placeholderData: keepPreviousData });
  const answer = query.data;
  const reach = useMemo(() => {
    if (!answer) return null;
    const name = (id: number) => charts.find((chart) => chart.id === id)?.name ?? `Chart ${id}`;
    const byFilter = new Map<string, FilterReach>();
    const entry = (id: string) => byFilter.get(id) ?? byFilter.set(id, { reaches: [], not: [] }).get(id)!;
    for (const chart of answer.charts) {
      for (const id of chart.reachedBy) entry(id).reaches.push(name(chart.id));
      for (const id of chart.notReachedBy) entry(id).not.push(name(chart.id));
    }
    return byFilter;
  }, [answer, charts]);
  return { reach: body === null ? null : reach, error: query.isError };
}

/** "Reaches: Revenue, Orders · Not: KPI", or nothing while it is not known. */
export function FilterReachNote({ reach, live = false }: { reach: FilterReach | undefined; live?: boolean }) {
  if (!reach || reach.reaches.length + reach.not.length === 0) return null;
  return (
    <p className="hint filter-reach" data-testid="filter-reach" {...(live ? { 'aria-live': 'polite' as const } : {})}>
      Reaches: {reach.reaches.length > 0 ? reach.reaches.join(', ') : 'no chart'}
      {reach.not.length > 0 ? ` · Not: ${reach.not.join(', ')}` : ''}
    </p>
  );
}
