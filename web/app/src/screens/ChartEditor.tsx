import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { PublicChart } from '../../../src/lib/types';
import { api, ok } from '../api/client';
import { CONDITION_OPERATORS, conditionsOf, oneOf } from '../api/narrow';
import { chartPreviewQuery, chartQuery, chartsQuery, datasetColumnsQuery, datasetsQuery, keys } from '../api/queries';
import type { Chart, ChartPreview, ChartType, Condition, Dataset, Operation, TimeInterval } from '../api/types';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { useSettled } from '../settled';
import { Empty, ErrorBox, Field, Load } from '../ui';
import { ChartCard } from './ChartCard';

const CHART_TYPES: ChartType[] = ['line', 'bar', 'table', 'kpi', 'pie', 'doughnut', 'avg', 'radar', 'polar', 'gauge', 'matrix', 'markdown'];
/** The types this form offers; a chart of another type keeps its own. */
const OFFERED_TYPES = CHART_TYPES.slice(0, 7);
const OPERATIONS: Operation[] = ['count', 'sum', 'avg', 'min', 'max', 'count_unique', 'none'];
const TIME_INTERVALS: TimeInterval[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'];
const INTERVALS = TIME_INTERVALS.slice(2);

const field = (column: string) => (column ? `root[].${column}` : null);
const column = (path: string | null | undefined) => (path ?? '').replace(/^root\[\]\./, '');

export function ChartEditor({ projectId, chartId }: { projectId: number; chartId: number | null }) {
  const { team } = useSession();
  // Every dataset of the team the user may use (the API lists those); one not yet on this dashboard is attached when the chart is saved. This dashboard's come first.
  const datasets = useQuery({ ...datasetsQuery(team.id), select: (all) => [...all].sort((a, b) => Number(b.project_ids.includes(projectId)) - Number(a.project_ids.includes(projectId))) });
  // Editing reads the chart; creating reads the dashboard's charts, whose count places the new one below them.
  const saved = useQuery({ ...chartQuery(projectId, chartId ?? 0), enabled: chartId !== null });
  const others = useQuery({ ...chartsQuery(projectId), enabled: chartId === null });
  const form = (chart: Chart | null, slot: number) => (
    <Load query={datasets} what="the chart">
      {(list) =>
        list.length === 0 ? (
          <Empty>
            <p>
              Your team has no dataset yet: create one under <Link to="/datasets">Datasets</Link> first.
            </p>
          </Empty>
        ) : (
          <Form projectId={projectId} datasets={list} chart={chart} slot={slot} />
        )
      }
    </Load>
  );
  return chartId === null ? (
    <Load query={others} what="the chart">
      {(charts) => form(null, charts.length)}
    </Load>
  ) : (
    <Load query={saved} what="the chart">
      {(chart) => form(chart, 0)}
    </Load>
  );
}

function Form({ projectId, datasets, chart, slot }: { projectId: number; datasets: Dataset[]; chart: Chart | null; slot: number }) {
  const { team } = useSession();
  const { navigate } = useRouter();
  const client = useQueryClient();
  const cdc = chart?.ChartDatasetConfigs[0];
  const [saved, setSaved] = useState<Chart | null>(chart);
  const [name, setName] = useState(chart?.name ?? '');
  const [type, setType] = useState<ChartType>(oneOf(CHART_TYPES, chart?.type) ?? 'line');
  const [datasetId, setDatasetId] = useState<number>(cdc?.dataset_id ?? datasets[0]!.id);
  const [xAxis, setXAxis] = useState(column(cdc?.xAxis));
  const [yAxis, setYAxis] = useState(column(cdc?.yAxis));
  const [operation, setOperation] = useState<Operation>(oneOf(OPERATIONS, cdc?.yAxisOperation) ?? 'count');
  const [isDate, setIsDate] = useState(cdc ? cdc.dateField !== null && cdc.dateField === cdc.xAxis : true);
  const [interval, setInterval] = useState<TimeInterval>(oneOf(TIME_INTERVALS, chart?.timeInterval) ?? 'day');
  const [formula, setFormula] = useState(cdc?.formula ?? '');
  const [color, setColor] = useState(cdc?.datasetColor ?? '#4E79A7');
  // Fields as the selects show them: column names, without the `root[].` the config stores.
  const [conditions, setConditions] = useState<Condition[]>(() => conditionsOf(cdc?.conditions ?? []).map((c) => ({ ...c, field: column(c.field) })));
  // Null while reading, [] when they could not be read.
  const columnsQuery = useQuery(datasetColumnsQuery(team.id, datasetId));
  const columns = columnsQuery.data ?? (columnsQuery.isError ? [] : null);

  const usesX = type !== 'table' && type !== 'kpi' && type !== 'avg';
  const usesY = type !== 'table';

  const config = () => ({
    dataset_id: datasetId,
    legend: name || 'Series',
    xAxis: usesX ? field(xAxis) : null,
    dateField: usesX && isDate ? field(xAxis) : null,
    yAxis: usesY ? field(yAxis) : null,
    yAxisOperation: usesY ? operation : null,
    formula: formula === '' ? null : formula,
    datasetColor: color,
    conditions: conditions.filter((c) => (c.field ?? '') !== '').map((c) => ({ ...c, field: `root[].${c.field}` })),
  });
  const chartBody = () => ({ name: name || 'Untitled chart', type, timeInterval: interval, includeZeros: true });
  const previewBody: ChartPreview = { ...chartBody(), chartDatasetConfigs: [config()] };
  // The fields a chart of this type cannot be computed without.
  const complete = columns !== null && (!usesX || xAxis !== '') && (!usesY || yAxis !== '');
  const live = useLivePreview(projectId, previewBody, complete);
  const savedId = saved?.id ?? 0;
  const card = useMemo(() => (live.answer ? previewChart(savedId, live.answer) : null), [live.answer, savedId]);

  /** Saves the chart (created, or updated with its dataset config), then runs it so that its data is saved too. */
  const save = useMutation({
    mutationFn: async () => {
      let current = saved;
      if (!current) {
        current = await ok(
          api.POST('/project/{project_id}/chart/quick-create', {
            params: { path: { project_id: projectId } },
            body: { ...chartBody(), draft: false, layout: { lg: [(slot % 2) * 6, 100 + slot, 6, 3] }, chartDatasetConfigs: [config()] },
          }),
        );
      } else {
        const path = { project_id: projectId, id: current.id };
        await ok(api.PUT('/project/{project_id}/chart/{id}', { params: { path }, body: { ...chartBody(), draft: false } }));
        const cdcId = current.ChartDatasetConfigs[0]?.id;
        if (cdcId) await ok(api.PUT('/project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}', { params: { path: { ...path, cdc_id: cdcId } }, body: config() }));
        else await ok(api.POST('/project/{project_id}/chart/{id}/chart-dataset-config', { params: { path }, body: config() }));
      }
      // Saved before it runs: a second try updates this chart rather than create another.
      setSaved(current);
      await ok(api.POST('/project/{project_id}/chart/{id}/query', { params: { path: { project_id: projectId, id: current.id } }, body: {} }));
    },
    // The dashboard reads its charts again when it opens.
    onSettled: () => client.invalidateQueries({ queryKey: keys.project(projectId), refetchType: 'none' }),
    onSuccess: () => navigate(`/dashboards/${projectId}`),
  });

  const columnSelect = (label: string, value: string, set: (v: string) => void) => (
    <Field label={label}>
      <select value={value} onChange={(e) => set(e.target.value)}>
        <option value="">(choose a column)</option>
        {(columns ?? []).map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </Field>
  );

  return (
    <section aria-labelledby="chart-title" className="editor-grid">
      <form className="panel" onSubmit={(e) => e.preventDefault()} aria-labelledby="chart-title">
        <h1 id="chart-title">{saved ? `Chart: ${saved.name}` : 'New chart'}</h1>
        <Field label="Chart name">
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Dataset">
          <select value={datasetId} onChange={(e) => setDatasetId(Number(e.target.value))}>
            {datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name ?? `Dataset ${d.id}`}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Chart type">
          <select value={type} onChange={(e) => setType(oneOf(CHART_TYPES, e.target.value) ?? 'line')}>
            {OFFERED_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Field>
        {columns === null ? <p className="status" role="status">Reading the dataset's columns…</p> : null}
        {columns !== null && columns.length === 0 ? <ErrorBox error="The dataset's columns could not be read: run it on its page to see why." /> : null}
        {usesX ? columnSelect('X axis', xAxis, setXAxis) : null}
        {usesX ? (
          <label className="check">
            <input type="checkbox" checked={isDate} onChange={(e) => setIsDate(e.target.checked)} /> The X axis is a date (group by time)
          </label>
        ) : null}
        {usesX && isDate ? (
          <Field label="Time interval">
            <select value={interval} onChange={(e) => setInterval(oneOf(TIME_INTERVALS, e.target.value) ?? 'day')}>
              {INTERVALS.map((i) => (
                <option key={i}>{i}</option>
              ))}
            </select>
          </Field>
        ) : null}
        {usesY ? columnSelect('Y axis', yAxis, setYAxis) : null}
        {usesY ? (
          <Field label="Operation">
            <select value={operation} onChange={(e) => setOperation(oneOf(OPERATIONS, e.target.value) ?? 'count')}>
              {OPERATIONS.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </Field>
        ) : null}
        <Field label="Formula" hint="e.g. €{val} or {val / 1000}k">
          <input value={formula} onChange={(e) => setFormula(e.target.value)} />
        </Field>
        <Field label="Colour">
          <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
        </Field>
        <fieldset>
          <legend>Conditions</legend>
          {conditions.map((c, i) => (
            <div className="condition" key={c.id ?? i}>
              <select aria-label="Condition field" value={c.field ?? ''} onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, field: e.target.value } : x)))}>
                <option value="">(field)</option>
                {(columns ?? []).map((col) => (
                  <option key={col}>{col}</option>
                ))}
              </select>
              <select
                aria-label="Condition operator"
                value={c.operator ?? 'is'}
                onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, operator: oneOf(CONDITION_OPERATORS, e.target.value) ?? 'is' } : x)))}
              >
                {CONDITION_OPERATORS.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
              <input aria-label="Condition value" value={c.value === undefined || c.value === null ? '' : String(c.value)} onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
              <button type="button" className="link" onClick={() => setConditions(conditions.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="link" onClick={() => setConditions([...conditions, { id: crypto.randomUUID(), field: '', operator: 'is', value: '' }])}>
            Add a condition
          </button>
        </fieldset>
        <ErrorBox error={save.error} />
        <div className="actions">
          <button type="button" onClick={live.refresh} disabled={!complete || live.state === 'running'}>
            Refresh preview
          </button>
          <button type="button" className="primary" disabled={save.isPending} onClick={() => save.mutate()}>
            Save chart
          </button>
        </div>
      </form>
      <div className="panel preview" data-preview-state={complete ? live.state : 'incomplete'}>
        <h2>Preview</h2>
        <p className="hint">Computed on the server as you change the form; nothing is saved until you press Save chart.</p>
        {live.state === 'running' ? (
          <p className="status" role="status">
            Updating the preview…
          </p>
        ) : null}
        {live.error ? <ErrorBox error={live.error} retry={live.refresh} /> : null}
        {!complete ? (
          <Empty>Choose the fields to see the chart.</Empty>
        ) : card ? (
          <ChartCard chart={card} />
        ) : null}
      </div>
    </section>
  );
}

type PreviewAnswer = { body: ChartPreview; chartData: unknown };
type LivePreview = { state: 'idle' | 'running' | 'ready' | 'error'; answer: PreviewAnswer | undefined; error: Error | null; refresh: () => void };

/**
 * The chart's data for the form as it is now, from the server (nothing is saved): asked for a moment
 * after the last change; while it runs, the previous answer stays on screen.
 */
function useLivePreview(projectId: number, body: ChartPreview, enabled: boolean): LivePreview {
  const { settled, current } = useSettled(body, 300);
  const preview = useQuery({ ...chartPreviewQuery(projectId, settled), enabled: enabled && current, placeholderData: keepPreviousData });
  const state = preview.isFetching ? 'running' : preview.isError ? 'error' : preview.data ? 'ready' : 'idle';
  return { state, answer: preview.data, error: preview.isFetching ? null : preview.error, refresh: () => void preview.refetch() };
}

/** What the report's chart card draws from: the previewed chart with its data. */
function previewChart(id: number, { body, chartData }: PreviewAnswer): PublicChart {
  return {
    id,
    name: body.name ?? null,
    type: body.type,
    subType: null,
    chartData,
    chartDataUpdated: null,
    layout: null,
    displayLegend: false,
    dataLabels: false,
    stacked: false,
    horizontal: false,
    showGrowth: false,
    invertGrowth: false,
    isLogarithmic: false,
    content: null,
    ranges: null,
    defaultRowsPerPage: 10,
    maxValue: null,
    minValue: null,
    xLabelTicks: 'default',
    pointRadius: null,
    dashedLastPoint: false,
    mode: 'chart',
    onReport: true,
    // The card draws from chartData; the spec is for Chartbrew's web app.
    visualization: { version: 2, status: 'draft', layers: [], settings: {}, metadata: {} },
    ChartDatasetConfigs: body.chartDatasetConfigs.map((c, index) => ({
      id: String(index),
      legend: c.legend ?? null,
      datasetColor: c.datasetColor ?? null,
      fillColor: null,
      fill: false,
      multiFill: false,
      pointRadius: null,
      order: null,
      goal: null,
      formula: c.formula ?? null,
    })),
  };
}
