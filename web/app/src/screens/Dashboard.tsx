import { replaceEqualDeep, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import GridLayout, { WidthProvider, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { notFilteredByText } from '../../../../src/render/card-notes';
import { refreshOverdue } from '../../../../src/runtime/scheduler/cadence';
import { filterName, filterSummary, runtimeFilter } from '../../../src/lib/filters';
import { KEEP_CURRENT_MS } from '../../../src/lib/keep-current';
import type { PublicChart } from '../../../src/lib/types';
import { api, ApiError, ok } from '../api/client';
import { gridCellOf } from '../api/narrow';
import { dashboardFiltersQuery, datasetsQuery, keys, projectQuery } from '../api/queries';
import type { Chart, DashboardFilter, FilterConfiguration, Project } from '../api/types';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Loading, mutationsState } from '../ui';
import { CardMenu } from './CardMenu';
import { ChartCard } from './ChartCard';
import { Alerts, ChartShare, Panel, RunHistory } from './ChartPanels';
import { keyboardLayout } from './grid-keys';
import './Dashboard.css';
import { DashboardSettings } from './DashboardSettings';
import { DashboardShare } from './DashboardShare';
import { DashboardDeliveries } from './DashboardDeliveries';
import { FilterBar } from './FilterBar';
import { useFilterRun, type FilteredChart } from './filter-run';

const Grid = WidthProvider(GridLayout);

/** A chart's cell on the 12-column grid; a chart without one goes below the others. */
function itemOf(chart: Chart, index: number): Layout {
  const [x, y, w, h] = gridCellOf(chart.layout) ?? [(index % 2) * 6, 1000 + index, 6, 3];
  return { i: String(chart.id), x, y, w, h, minW: 2, minH: 2 };
}

/**
 * A read of the dashboard that failed on the network or the server: the board stays as it was and
 * the next beat tries again. Anything else (the dashboard deleted, access taken away) is said.
 */
function passingFailure(error: Error): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500);
}

export function Dashboard({ projectId }: { projectId: number }) {
  // An open dashboard follows the server as the report page does (web/src/lib/keep-current.ts): it
  // is read again every minute while the tab is in view, and when the tab comes back into view a
  // minute or more after the last read. What the person is doing lives in Board's state and is
  // kept; only the saved charts move.
  const project = useQuery({
    ...projectQuery(projectId),
    refetchInterval: KEEP_CURRENT_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: (query) => Date.now() - query.state.dataUpdatedAt >= KEEP_CURRENT_MS,
  });
  if (project.isPending) return <Loading what="the dashboard" />;
  if (project.data === undefined || (project.isError && !passingFailure(project.error))) return <ErrorBox error={project.error} retry={() => void project.refetch()} />;
  return <Board project={project.data} readAt={project.dataUpdatedAt} />;
}

const PHONE = '(max-width: 760px)';

/** True on a phone-width screen, where the dashboard is one column in layout order. */
function usePhone(): boolean {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE).matches);
  useEffect(() => {
    const media = window.matchMedia(PHONE);
    const change = () => setPhone(media.matches);
    media.addEventListener('change', change);
    return () => media.removeEventListener('change', change);
  }, []);
  return phone;
}

/**
 * The chart as a card shows it: with the filtered run's data when there is one (computed now, of
 * its own time, so neither overdue nor the data a failed refresh left); else its saved data,
 * marked when it is overdue by the chart's or the dashboard's schedule (the rule the server
 * applies for the report page and the pictures).
 */
function shownChart(chart: Chart, filtered: FilteredChart | undefined, project: Project, now: Date): PublicChart {
  if (filtered) {
    if (filtered.error) return { ...chart, chartData: null, error: filtered.error };
    return { ...chart, chartData: filtered.chartData, chartDataUpdated: filtered.chartDataUpdated ?? chart.chartDataUpdated, lastError: null };
  }
  const overdue = refreshOverdue(
    { type: chart.type, chartDataUpdated: chart.chartDataUpdated, autoUpdate: chart.autoUpdate, chartUpdatedAt: chart.updatedAt, updateSchedule: project.updateSchedule, dashboardUpdatedAt: project.updatedAt },
    now,
  );
  return overdue ? { ...chart, refreshOverdue: overdue } : chart;
}

/**
 * The filters set that narrow a chart, as chips with their values, and one chip naming those set
 * that do not reach it: as the server's run says (`filteredBy`), for the filters it was sent.
 */
function FilterChips({ chart, filters, tried, filtered }: { chart: Chart; filters: DashboardFilter[]; tried: (filter: DashboardFilter) => FilterConfiguration; filtered: FilteredChart | undefined }) {
  if (!filtered || filtered.error || chart.type === 'markdown') return null;
  const sent = filters.filter((filter) => filtered.sent.has(filter.id));
  const by = sent.filter((filter) => filtered.filteredBy.includes(filter.id));
  const notBy = notFilteredByText(sent.filter((filter) => !filtered.filteredBy.includes(filter.id)).map((filter) => filterName(tried(filter))));
  if (by.length === 0 && !notBy) return null;
  return (
    <ul className="filter-chips" aria-label={`Filters of ${chart.name ?? 'this chart'}`}>
      {by.map((filter) => (
        <li key={filter.id} className="chip" data-filter-id={filter.id}>
          {filterSummary(tried(filter))}
        </li>
      ))}
      {notBy ? (
        <li className="chip chip-missing" data-not-filtered="true">
          <span aria-hidden="true">⚠ </span>
          {notBy}
        </li>
      ) : null}
    </ul>
  );
}

/** Each chart's cell as saved, as text: equal texts are the same layout, whatever else was read again. */
function cellsKey(charts: Chart[]): string {
  return JSON.stringify(charts.map((chart, index) => itemOf(chart, index)));
}

/** The layout shown: the person's cells not saved yet over the saved ones (a chart added meanwhile keeps its own). */
function withUnsaved(saved: Layout[], unsaved: Layout[] | null): Layout[] {
  if (!unsaved) return saved;
  return saved.map((item) => unsaved.find((u) => u.i === item.i) ?? item);
}

/**
 * What the filtered view is computed under: each chart's saved data time and last change. A re-read
 * that moves it (a refresh ran, a chart was edited) runs the filtered view again.
 */
function savedState(charts: Chart[]): string {
  return charts.map((chart) => `${chart.id}:${chart.chartDataUpdated ?? ''}:${chart.updatedAt}`).join(',');
}

/** `readAt`: when the dashboard was last read; the overdue marks are judged again at each read. */
function Board({ project, readAt }: { project: Project; readAt: number }) {
  const phone = usePhone();
  const client = useQueryClient();
  const { team } = useSession();
  const [status, setStatus] = useState<string | null>(null);
  const [panel, setPanel] = useState<'settings' | 'share' | 'deliveries' | 'runs' | null>(null);
  const [cardPanel, setCardPanel] = useState<{ chart: Chart; kind: 'runs' | 'alerts' | 'share' | 'deliveries' } | null>(null);
  const { navigate } = useRouter();
  const charts = project.Charts;
  // The saved layout changes only when a cell does: a re-read that brings new chart data alone
  // leaves the grid as it is.
  const cells = cellsKey(charts);
  const layout = useMemo(() => JSON.parse(cells) as Layout[], [cells]);
  const names = useMemo(() => new Map(charts.map((c) => [c.id, c.name ?? `Chart ${c.id}`])), [charts]);
  // The layout the person made (keys, a drag, a resize), shown until its save has been read back:
  // a re-read meanwhile (the minute's, another save's) takes new chart data, never their cells.
  const [unsaved, setUnsaved] = useState<Layout[] | null>(null);
  const shownLayout = useMemo(() => withUnsaved(layout, unsaved), [layout, unsaved]);
  const [announcement, setAnnouncement] = useState('');
  const saveTimer = useRef<number | undefined>(undefined);

  // Filters: saved ones, and the values being tried on them (not saved until "Save value").
  const filtersQuery = useQuery(dashboardFiltersQuery(project.id));
  const dashboardDatasets = useQuery({ ...datasetsQuery(team.id), select: (all) => all.filter((d) => d.project_ids.includes(project.id)) });
  const teamDatasets = useQuery(datasetsQuery(team.id));
  const filters = filtersQuery.data ?? [];
  const datasets = dashboardDatasets.data ?? [];
  const [trying, setTrying] = useState<Record<string, FilterConfiguration>>({});
  const tried = (filter: DashboardFilter) => trying[filter.id] ?? filter.configuration;
  const runState = filters.flatMap((filter) => {
    const item = runtimeFilter(filter.id, tried(filter));
    return item ? [item] : [];
  });
  const filterRun = useFilterRun(project.id, runState.length > 0 ? { filters: runState } : null);
  const filtered = filterRun.charts;
  // With filters set, the cards show a run computed for them (the values being tried included),
  // never the saved data. When a re-read finds the saved data moved, the run is made again with the
  // same values, as the report page does; a minute that changed nothing does not query the sources
  // again. A run already under way (Refresh all reloads it too) is the one waited for.
  const saved = savedState(charts);
  const savedBefore = useRef(saved);
  useEffect(() => {
    if (savedBefore.current === saved) return;
    savedBefore.current = saved;
    void client.invalidateQueries({ queryKey: keys.filterRuns(project.id) }, { cancelRefetch: false });
  }, [saved, client, project.id]);
  // Overdue marks are judged when the dashboard is read or filtered again, not on every render. A
  // card equal to the one shown keeps its object, so only the charts whose data or marks changed
  // are drawn again.
  const drawn = useRef(new Map<number, PublicChart>());
  const shown = useMemo(() => {
    const now = new Date();
    const next = new Map(charts.map((chart) => [chart.id, replaceEqualDeep(drawn.current.get(chart.id), shownChart(chart, filtered?.get(chart.id), project, now))]));
    drawn.current = next;
    return next;
    // readAt: a read that changed nothing still judges the marks again.
  }, [charts, filtered, project, readAt]);
  const reload = () => client.invalidateQueries({ queryKey: keys.project(project.id) });

  const saveLayout = useMutation({
    mutationFn: async ({ changed }: { next: Layout[]; changed: Layout[] }) => {
      for (const item of changed) {
        await ok(api.PUT('/project/{project_id}/chart/{id}', { params: { path: { project_id: project.id, id: Number(item.i) } }, body: { layout: { lg: [item.x, item.y, item.w, item.h] } } }));
      }
    },
    onMutate: () => setStatus('Saving the layout…'),
    onSuccess: async (_done, { next }) => {
      setStatus('Layout saved.');
      await reload();
      // Read back: the saved cells are shown from now on, unless the person moved a card again meanwhile.
      setUnsaved((current) => (current === next ? null : current));
    },
    // Not saved: the person's layout stays on screen, and their next move saves it with the rest.
    onError: () => setStatus(null),
  });
  const moved = (next: Layout[]) => {
    const changed = next.filter((item) => {
      const before = layout.find((l) => l.i === item.i);
      return !before || before.x !== item.x || before.y !== item.y || before.w !== item.w || before.h !== item.h;
    });
    if (changed.length === 0) {
      setUnsaved((current) => (current === next ? null : current));
      return;
    }
    setUnsaved(next);
    saveLayout.mutate({ next, changed });
  };

  // Each chart that failed, by name, for the message under the buttons.
  const [failures, setFailures] = useState<{ name: string; message: string }[]>([]);
  const refreshAll = useMutation({
    // One request: the server refreshes every chart a few at a time, goes on past failures and
    // answers each chart's outcome (one manual run in the history).
    mutationFn: async () => {
      const run = await ok(api.POST('/project/{id}/refresh', { params: { path: { id: project.id } } }));
      const failed = run.charts
        .filter((entry) => entry.status === 'failure')
        .map((entry) => ({ name: names.get(entry.chart_id) ?? `Chart ${entry.chart_id}`, message: entry.error?.message ?? 'The refresh failed' }));
      setFailures(failed);
      return { total: run.charts.length, failed: failed.length };
    },
    onMutate: () => {
      setFailures([]);
      setStatus('Refreshing every chart…');
    },
    onSuccess: ({ total, failed }) =>
      setStatus(failed === 0 ? `All ${total} charts refreshed.` : `${total - failed} of ${total} charts refreshed; ${failed} failed.`),
    onError: () => setStatus(null),
    onSettled: reload,
  });

  /** Arrow keys move the focused card by a cell, Shift+arrow keys resize it; saved a moment after the last key. */
  const onCardKey = (chart: Chart, event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const next = keyboardLayout(shownLayout, String(chart.id), event.key, event.shiftKey, 12);
    if (!next) return;
    event.preventDefault();
    setUnsaved(next.layout);
    const item = next.item;
    setAnnouncement(`${chart.name ?? 'Chart'}: column ${item.x + 1}, row ${item.y + 1}, ${item.w} columns wide, ${item.h} rows high.`);
    window.clearTimeout(saveTimer.current);
    saveTimer.current = window.setTimeout(() => moved(next.layout), 600);
  };

  const removeChart = useMutation({
    mutationFn: (chart: Chart) => ok(api.DELETE('/project/{project_id}/chart/{id}', { params: { path: { project_id: project.id, id: chart.id } } })),
    onSuccess: reload,
  });
  const remove = (chart: Chart) => {
    if (window.confirm(`Delete the chart “${chart.name}”?`)) removeChart.mutate(chart);
  };

  const download = (chart: Chart, format: 'csv' | 'xlsx') => {
    const a = document.createElement('a');
    a.href = `/project/${project.id}/chart/${chart.id}/export?format=${format}`;
    a.download = `${chart.name ?? 'chart'}.${format}`;
    document.body.append(a);
    a.click();
    a.remove();
  };

  const { busy, error } = mutationsState(saveLayout, refreshAll, removeChart);

  const item = (chart: Chart) => (
    <>
      <div className="item-bar">
        {phone ? null : (
          <button type="button" className="drag-handle" aria-label={`Move ${chart.name}`}>
            ⠿
          </button>
        )}
        <Link to={`/dashboards/${project.id}/charts/${chart.id}`}>Edit</Link>
        <CardMenu
          label={`Menu of ${chart.name ?? 'this chart'}`}
          items={[
            { label: 'Edit', run: () => navigate(`/dashboards/${project.id}/charts/${chart.id}`) },
            { label: 'Download CSV', run: () => download(chart, 'csv') },
            { label: 'Download XLSX', run: () => download(chart, 'xlsx') },
            { label: 'Alerts', run: () => setCardPanel({ chart, kind: 'alerts' }) },
            { label: 'Deliveries', run: () => setCardPanel({ chart, kind: 'deliveries' }) },
            { label: 'Run history', run: () => setCardPanel({ chart, kind: 'runs' }) },
            { label: 'Share and embed', run: () => setCardPanel({ chart, kind: 'share' }) },
            { label: 'Remove', run: () => remove(chart), danger: true },
          ]}
        />
      </div>
      <FilterChips chart={chart} filters={filters} tried={tried} filtered={filtered?.get(chart.id)} />
      <ChartCard chart={shown.get(chart.id) ?? chart} emptyText={filtered?.has(chart.id) ? 'No data for these filters.' : undefined} />
    </>
  );

  return (
    <section aria-labelledby="dashboard-title">
      <div className="toolbar">
        <h1 id="dashboard-title">{project.dashboardTitle || project.name}</h1>
        <div className="actions">
          <Link to={`/dashboards/${project.id}/charts/new`} className="button primary">
            Add a chart
          </Link>
          <button type="button" onClick={() => refreshAll.mutate()} disabled={busy || charts.length === 0}>
            Refresh all
          </button>
          <button type="button" aria-expanded={panel === 'settings'} onClick={() => setPanel(panel === 'settings' ? null : 'settings')}>
            Settings
          </button>
          <button type="button" aria-expanded={panel === 'share'} onClick={() => setPanel(panel === 'share' ? null : 'share')}>
            Share
          </button>
          <button type="button" aria-expanded={panel === 'deliveries'} onClick={() => setPanel(panel === 'deliveries' ? null : 'deliveries')}>
            Deliveries
          </button>
          <button type="button" aria-expanded={panel === 'runs'} onClick={() => setPanel(panel === 'runs' ? null : 'runs')}>
            Run history
          </button>
        </div>
      </div>
      {status ? (
        <p className="muted" role="status">
          {status}
        </p>
      ) : null}
      <ErrorBox error={error} />
      {failures.length > 0 ? (
        <div className="error refresh-failures" role="alert" data-state="error">
          <span>These charts could not be refreshed (they keep their last good data):</span>
          <ul>
            {failures.map((f) => (
              <li key={f.name}>
                <strong>{f.name}</strong>: {f.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {panel === 'settings' ? <DashboardSettings project={project} /> : null}
      {panel === 'share' ? <DashboardShare projectId={project.id} /> : null}
      {panel === 'deliveries' ? <DashboardDeliveries projectId={project.id} /> : null}
      {panel === 'runs' ? (
        <Panel title="Run history of the dashboard" onClose={() => setPanel(null)}>
          <RunHistory projectId={project.id} names={names} />
        </Panel>
      ) : null}
      {cardPanel ? (
        <Panel title={`${{ runs: 'Run history', alerts: 'Alerts', share: 'Share and embed', deliveries: 'Deliveries' }[cardPanel.kind]} of ${cardPanel.chart.name ?? 'the chart'}`} onClose={() => setCardPanel(null)}>
          {cardPanel.kind === 'runs' ? (
            <RunHistory projectId={project.id} chartId={cardPanel.chart.id} names={names} />
          ) : cardPanel.kind === 'alerts' ? (
            <Alerts projectId={project.id} chart={cardPanel.chart} />
          ) : cardPanel.kind === 'deliveries' ? (
            <DashboardDeliveries projectId={project.id} chartId={cardPanel.chart.id} chartName={cardPanel.chart.name ?? undefined} />
          ) : (
            <ChartShare projectId={project.id} chart={cardPanel.chart} />
          )}
        </Panel>
      ) : null}
      <p className="sr-only" aria-live="polite" data-testid="layout-announcement">
        {announcement}
      </p>
      {filtersQuery.isPending ? (
        <Loading what="the filters" />
      ) : filtersQuery.isError ? (
        <ErrorBox error={filtersQuery.error} retry={() => void filtersQuery.refetch()} />
      ) : (
        <FilterBar
          projectId={project.id}
          filters={filters}
          charts={charts}
          datasets={datasets}
          tried={tried}
          onTry={(filter, configuration) => setTrying((current) => ({ ...current, [filter.id]: configuration }))}
          onForget={(filter) => setTrying(({ [filter.id]: _gone, ...rest }) => rest)}
          run={filterRun.run}
        />
      )}
      {charts.length === 0 ? (
        <Empty>
          <p>No chart on this dashboard yet.</p>
          {teamDatasets.data?.length === 0 ? (
            <p data-testid="needs-dataset">
              A chart is drawn from a dataset, and your team has none yet: add a <Link to="/connections">connection</Link> to your database or API, then create a{' '}
              <Link to="/datasets">dataset</Link> on it. Its page then links back here.
            </p>
          ) : (
            <Link to={`/dashboards/${project.id}/charts/new`}>Add the first chart</Link>
          )}
        </Empty>
      ) : phone ? (
        <div className="stack board">
          {[...charts]
            .sort((a, b) => {
              const la = shownLayout.find((l) => l.i === String(a.id))!;
              const lb = shownLayout.find((l) => l.i === String(b.id))!;
              return la.y - lb.y || la.x - lb.x;
            })
            .map((chart) => (
              <div key={String(chart.id)} className="board-item" data-chart-name={chart.name}>
                {item(chart)}
              </div>
            ))}
        </div>
      ) : (
        <>
          <p className="sr-only" id="card-keys">
            Arrow keys move the card by a cell; Shift with an arrow key resizes it.
          </p>
          <Grid className="board" layout={shownLayout} cols={12} rowHeight={90} margin={[12, 12]} draggableHandle=".drag-handle" onDragStop={moved} onResizeStop={moved}>
            {charts.map((chart) => (
              <div
                key={String(chart.id)}
                className="board-item"
                data-chart-name={chart.name}
                tabIndex={0}
                role="group"
                aria-label={chart.name ?? 'Chart'}
                aria-describedby="card-keys"
                onKeyDown={(event) => onCardKey(chart, event)}
              >
                {item(chart)}
              </div>
            ))}
          </Grid>
        </>
      )}
    </section>
  );
}
