import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, ok } from '../api/client';
import { useRouter } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, useAction, useAsync } from '../ui';
import type { PublicChart, PublicConfig } from '../../../src/lib/types';
import { ChartCard } from './ChartCard';
import type { Dataset, RunResult } from './Datasets';

const TYPES = ['line', 'bar', 'table', 'kpi', 'pie', 'doughnut', 'avg'] as const;
const OPERATIONS = ['count', 'sum', 'avg', 'min', 'max', 'count_unique', 'none'] as const;
const INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
const OPERATORS = ['is', 'isNot', 'contains', 'notContains', 'greaterThan', 'greaterOrEqual', 'lessThan', 'lessOrEqual', 'isNull', 'isNotNull'] as const;

interface Condition {
  id: string;
  field: string;
  operator: (typeof OPERATORS)[number];
  value: string;
}
interface Cdc {
  id: string;
  dataset_id: number;
  xAxis: string | null;
  yAxis: string | null;
  yAxisOperation: string | null;
  dateField: string | null;
  formula: string | null;
  datasetColor: string | null;
  legend: string | null;
  conditions: Condition[] | null;
}
export interface ChartRecord {
  id: number;
  name: string;
  type: string;
  timeInterval: string;
  layout: unknown;
  chartData: unknown;
  ChartDatasetConfigs: Cdc[];
}

const field = (column: string) => (column ? `root[].${column}` : null);
const column = (path: string | null) => (path ?? '').replace(/^root\[\]\./, '');

export function ChartEditor({ projectId, chartId }: { projectId: number; chartId: number | null }) {
  const { team } = useSession();
  const [loaded, reload] = useAsync(async () => {
    const datasets = ((await ok(api.GET('/team/{team_id}/datasets', { params: { path: { team_id: team.id } } }))) as unknown as Dataset[]).filter((d) => d.project_ids.includes(projectId));
    const chart = chartId === null ? null : ((await ok(api.GET('/project/{project_id}/chart/{id}', { params: { path: { project_id: projectId, id: chartId } } }))) as unknown as ChartRecord);
    const slot = chartId === null ? ((await ok(api.GET('/project/{project_id}/chart', { params: { path: { project_id: projectId } } }))) as unknown as unknown[]).length : 0;
    return { datasets, chart, slot };
  }, [team.id, projectId, chartId]);
  return (
    <Load value={loaded} what="the chart" retry={reload}>
      {({ datasets, chart, slot }) =>
        datasets.length === 0 ? (
          <Empty>
            <p>This dashboard has no dataset yet: create one under Datasets first.</p>
          </Empty>
        ) : (
          <Form projectId={projectId} datasets={datasets} chart={chart} slot={slot} />
        )
      }
    </Load>
  );
}

function Form({ projectId, datasets, chart, slot }: { projectId: number; datasets: Dataset[]; chart: ChartRecord | null; slot: number }) {
  const { team } = useSession();
  const { navigate } = useRouter();
  const cdc = chart?.ChartDatasetConfigs[0];
  const [saved, setSaved] = useState<ChartRecord | null>(chart);
  const [name, setName] = useState(chart?.name ?? '');
  const [type, setType] = useState<string>(chart?.type ?? 'line');
  const [datasetId, setDatasetId] = useState<number>(cdc?.dataset_id ?? datasets[0]!.id);
  const [xAxis, setXAxis] = useState(column(cdc?.xAxis ?? null));
  const [yAxis, setYAxis] = useState(column(cdc?.yAxis ?? null));
  const [operation, setOperation] = useState(cdc?.yAxisOperation ?? 'count');
  const [isDate, setIsDate] = useState(cdc ? cdc.dateField !== null && cdc.dateField === cdc.xAxis : true);
  const [interval, setInterval] = useState(chart?.timeInterval ?? 'day');
  const [formula, setFormula] = useState(cdc?.formula ?? '');
  const [color, setColor] = useState(cdc?.datasetColor ?? '#4E79A7');
  const [conditions, setConditions] = useState<Condition[]>(cdc?.conditions ?? []);
  const [columns, setColumns] = useState<string[] | null>(null);
  const action = useAction();

  useEffect(() => {
    setColumns(null);
    let live = true;
    ok(api.POST('/team/{team_id}/datasets/{dataset_id}/request', { params: { path: { team_id: team.id, dataset_id: datasetId } }, body: { limit: 20 } })).then(
      (answer) => {
        if (!live) return;
        const result = answer as unknown as RunResult;
        setColumns(result.meta.columns.length > 0 ? result.meta.columns.map((c) => c.name) : Object.keys(result.data[0] ?? {}));
      },
      () => live && setColumns([]),
    );
    return () => {
      live = false;
    };
  }, [team.id, datasetId]);

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
    conditions: conditions.filter((c) => c.field !== '').map((c) => ({ ...c, field: field(c.field)! })),
  });
  const chartBody = () => ({ name: name || 'Untitled chart', type, timeInterval: interval, includeZeros: true });
  const previewBody = { ...chartBody(), chartDatasetConfigs: [config()] };
  // The fields a chart of this type cannot be computed without.
  const complete = columns !== null && (!usesX || xAxis !== '') && (!usesY || yAxis !== '');
  const live = useLivePreview(projectId, previewBody, complete);
  const savedId = saved?.id ?? 0;
  const card = useMemo(() => (live.answer ? previewChart(savedId, live.answer) : null), [live.answer, savedId]);

  /** Saves the chart (created, or updated with its dataset config), then runs it so that its data is saved too. */
  const persist = async (): Promise<void> => {
    let current = saved;
    if (!current) {
      current = (await ok(
        api.POST('/project/{project_id}/chart/quick-create', { params: { path: { project_id: projectId } }, body: { ...chartBody(), draft: false, layout: { lg: [(slot % 2) * 6, 100 + slot, 6, 3] }, chartDatasetConfigs: [config()] } as never }),
      )) as unknown as ChartRecord;
    } else {
      await ok(api.PUT('/project/{project_id}/chart/{id}', { params: { path: { project_id: projectId, id: current.id } }, body: { ...chartBody(), draft: false } as never }));
      const cdcId = current.ChartDatasetConfigs[0]?.id;
      if (cdcId) await ok(api.PUT('/project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}', { params: { path: { project_id: projectId, id: current.id, cdc_id: cdcId } }, body: config() as never }));
      else await ok(api.POST('/project/{project_id}/chart/{id}/chart-dataset-config', { params: { path: { project_id: projectId, id: current.id } }, body: config() as never }));
    }
    setSaved(current);
    await ok(api.POST('/project/{project_id}/chart/{id}/query', { params: { path: { project_id: projectId, id: current.id } }, body: {} }));
  };

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
          <select value={type} onChange={(e) => setType(e.target.value)}>
            {TYPES.map((t) => (
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
            <select value={interval} onChange={(e) => setInterval(e.target.value)}>
              {INTERVALS.map((i) => (
                <option key={i}>{i}</option>
              ))}
            </select>
          </Field>
        ) : null}
        {usesY ? columnSelect('Y axis', yAxis, setYAxis) : null}
        {usesY ? (
          <Field label="Operation">
            <select value={operation} onChange={(e) => setOperation(e.target.value)}>
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
            <div className="condition" key={c.id}>
              <select aria-label="Condition field" value={c.field.replace(/^root\[\]\./, '')} onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, field: e.target.value } : x)))}>
                <option value="">(field)</option>
                {(columns ?? []).map((col) => (
                  <option key={col}>{col}</option>
                ))}
              </select>
              <select aria-label="Condition operator" value={c.operator} onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, operator: e.target.value as Condition['operator'] } : x)))}>
                {OPERATORS.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
              <input aria-label="Condition value" value={c.value} onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
              <button type="button" className="link" onClick={() => setConditions(conditions.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="link" onClick={() => setConditions([...conditions, { id: crypto.randomUUID(), field: '', operator: 'is', value: '' }])}>
            Add a condition
          </button>
        </fieldset>
        <ErrorBox error={action.error} />
        <div className="actions">
          <button type="button" onClick={live.refresh} disabled={!complete || live.state === 'running'}>
            Refresh preview
          </button>
          <button type="button" className="primary" disabled={action.busy} onClick={() => void action.run(async () => (await persist(), navigate(`/dashboards/${projectId}`)))}>
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

/** A public chart whose dataset configs carry only what the form sets. */
type PreviewCard = Omit<PublicChart, 'ChartDatasetConfigs'> & { ChartDatasetConfigs: Pick<PublicConfig, 'datasetColor' | 'legend'>[] };

interface PreviewBody {
  name: string;
  type: string;
  chartDatasetConfigs: { datasetColor: string | null; legend: string | null }[];
}
type LivePreview = { state: 'idle' | 'running' | 'ready' | 'error'; answer: { body: PreviewBody; chartData: unknown } | null; error: string | null; refresh: () => void };

/**
 * The chart's data for the form as it is now, from `POST …/chart/preview` (nothing is saved): asked
 * for a moment after the last change, and an answer that a newer change overtook is dropped.
 */
function useLivePreview(projectId: number, body: PreviewBody, enabled: boolean): LivePreview {
  const key = JSON.stringify(body);
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<Omit<LivePreview, 'refresh'>>({ state: 'idle', answer: null, error: null });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const sent = JSON.parse(key) as PreviewBody;
    const timer = window.setTimeout(() => {
      setState((s) => ({ ...s, state: 'running', error: null }));
      ok(api.POST('/project/{project_id}/chart/preview', { params: { path: { project_id: projectId } }, body: sent as never, signal: controller.signal })).then(
        (answer) => !controller.signal.aborted && setState({ state: 'ready', answer: { body: sent, chartData: (answer as { chartData: unknown }).chartData }, error: null }),
        (error: unknown) => !controller.signal.aborted && setState((s) => ({ ...s, state: 'error', error: error instanceof Error ? error.message : String(error) })),
      );
    }, 300);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [projectId, key, enabled, tick]);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, refresh };
}

/** What the report's chart card draws from: the previewed chart with its data, and the display options' defaults. */
function previewChart(id: number, { body, chartData }: { body: PreviewBody; chartData: unknown }): PreviewCard {
  return {
    id,
    name: body.name,
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
    ChartDatasetConfigs: body.chartDatasetConfigs.map((c) => ({ datasetColor: c.datasetColor, legend: c.legend })),
  };
}
