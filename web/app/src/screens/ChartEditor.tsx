import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { OPERATOR_WORDS } from '../../../../src/render/card-notes';
import type { PublicChart } from '../../../src/lib/types';
import { api, ok } from '../api/client';
import { CONDITION_OPERATORS, conditionsOf, oneOf } from '../api/narrow';
import { chartPreviewQuery, chartQuery, chartsQuery, datasetColumnInfoQuery, datasetsQuery, keys, type ColumnInfo } from '../api/queries';
import type { Chart, ChartPreview, ChartType, Condition, Dataset, Operation, TimeInterval } from '../api/types';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { useSettled } from '../settled';
import { variablesOf } from '../api/filter-scope';
import { Empty, ErrorBox, Field, Load } from '../ui';
import { ChartCard } from './ChartCard';
import { useUnsavedGuard } from './unsaved-guard';

const CHART_TYPES: ChartType[] = ['line', 'bar', 'table', 'kpi', 'pie', 'doughnut', 'avg', 'radar', 'polar', 'gauge', 'matrix', 'markdown'];
const TYPE_NAMES: Record<ChartType, string> = {
  line: 'Line',
  bar: 'Bar',
  table: 'Table',
  kpi: 'KPI (one number)',
  pie: 'Pie',
  doughnut: 'Doughnut',
  avg: 'Average (one number)',
  radar: 'Radar',
  polar: 'Polar area',
  gauge: 'Gauge',
  matrix: 'Calendar heatmap',
  markdown: 'Text (Markdown)',
};
const OPERATIONS: Operation[] = ['count', 'sum', 'avg', 'min', 'max', 'count_unique', 'none'];
const OPERATION_NAMES: Record<Operation, string> = {
  count: 'Count of rows',
  sum: 'Sum',
  avg: 'Average',
  min: 'Minimum',
  max: 'Maximum',
  count_unique: 'Count of distinct values',
  none: 'None (each value as it is)',
};
const INTERVAL_NAMES: Record<TimeInterval, string> = { second: 'Second', minute: 'Minute', hour: 'Hour', day: 'Day', week: 'Week', month: 'Month', year: 'Year' };
const TIME_INTERVALS: TimeInterval[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'];
const INTERVALS = TIME_INTERVALS.slice(2);
const X_TICKS = ['default', 'half', 'third', 'fourth', 'showAll'] as const;
const PALETTE = ['#4E79A7', '#F28E2B', '#E15759', '#76B7B2', '#59A14F', '#EDC948', '#B07AA1', '#FF9DA7'];

/** Types drawn with an X axis of categories or dates; the others group everything into one value or show rows. */
const X_TYPES = new Set<ChartType>(['line', 'bar', 'pie', 'doughnut', 'radar', 'polar', 'matrix']);
/** Types that draw one series per dataset configuration. */
const MULTI_SERIES = new Set<ChartType>(['line', 'bar', 'radar', 'kpi', 'avg']);
/** Types whose series may be split by a column's values (the API's breakdown). */
const SPLIT_TYPES = new Set<ChartType>(['line', 'bar', 'radar']);
/** The most series a split draws (the API's limit). */
const MAX_SPLIT_SERIES = 20;

const field = (column: string) => (column ? `root[].${column}` : null);
const column = (path: string | null | undefined) => (path ?? '').replace(/^root\[\]\./, '');

interface Series {
  key: string;
  /** The saved configuration's id; none for a series added in this form. */
  id?: string;
  datasetId: number;
  legend: string;
  yAxis: string;
  operation: Operation;
  color: string;
  goal: string;
  formula: string;
  /** A column whose values split the series, one series per value; '' for none. */
  splitBy: string;
  /** The largest series drawn ('' for the most). */
  splitLimit: string;
  /** The series past the limit summed into one. */
  splitOther: boolean;
  splitOtherLabel: string;
}

const NO_SPLIT = { splitBy: '', splitLimit: '', splitOther: false, splitOtherLabel: '' };

interface Band {
  key: string;
  min: string;
  max: string;
  label: string;
  color: string;
}

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
        list.length === 0 && chart?.type !== 'markdown' ? (
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

function seriesOf(chart: Chart | null, fallbackDataset: number): Series[] {
  const configs = chart?.ChartDatasetConfigs ?? [];
  if (configs.length === 0) return [{ key: 's0', datasetId: fallbackDataset, legend: '', yAxis: '', operation: 'count', color: PALETTE[0]!, goal: '', formula: '', ...NO_SPLIT }];
  return configs.map((c, i) => ({
    key: c.id,
    id: c.id,
    datasetId: c.dataset_id,
    legend: c.legend ?? '',
    yAxis: column(c.yAxis),
    operation: oneOf(OPERATIONS, c.yAxisOperation) ?? 'count',
    color: c.datasetColor ?? PALETTE[i % PALETTE.length]!,
    goal: c.goal === null || c.goal === undefined ? '' : String(c.goal),
    formula: c.formula ?? '',
    splitBy: column(c.breakdown),
    splitLimit: c.breakdownLimit === null || c.breakdownLimit === undefined ? '' : String(c.breakdownLimit),
    splitOther: c.breakdownOther ?? false,
    splitOtherLabel: c.breakdownOtherLabel ?? '',
  }));
}

/** Whether a series' values add up, so that a split may sum its smaller series into one (the API's breakdownOther). */
const addsUp = (s: Series) => s.operation === 'count' || s.operation === 'sum';
/** The split's "Other" series as it will be saved: asked for, over values that add up. */
const foldsOther = (s: Series) => s.splitOther && addsUp(s);

/** A split's limit as the API takes it: a whole number from 1 to the most, else the default (null). */
function splitLimitOf(text: string): number | null {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= MAX_SPLIT_SERIES ? n : null;
}

function bandsOf(ranges: unknown): Band[] {
  if (!Array.isArray(ranges)) return [];
  return ranges.flatMap((r: unknown, i) => {
    if (typeof r !== 'object' || r === null) return [];
    const band = r as { min?: unknown; max?: unknown; label?: unknown; color?: unknown };
    return [{ key: `b${i}`, min: String(band.min ?? ''), max: String(band.max ?? ''), label: typeof band.label === 'string' ? band.label : '', color: typeof band.color === 'string' ? band.color : PALETTE[i % PALETTE.length]! }];
  });
}

/** A saved configuration (`{variables: [{name, value}], …}`) as an object, whatever was stored. */
function configurationOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The values a chart gives its dataset's variables, by name, as text for the form. */
function variableValuesOf(configuration: Record<string, unknown>): Record<string, string> {
  const list = Array.isArray(configuration['variables']) ? (configuration['variables'] as unknown[]) : [];
  const values: Record<string, string> = {};
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, value } = item as { name?: unknown; value?: unknown };
    if (typeof name === 'string' && value !== null && value !== undefined) values[name] = String(value);
  }
  return values;
}

const numberOrNull = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text));

function Form({ projectId, datasets, chart, slot }: { projectId: number; datasets: Dataset[]; chart: Chart | null; slot: number }) {
  const { team } = useSession();
  const { navigate } = useRouter();
  const client = useQueryClient();
  const first = chart?.ChartDatasetConfigs[0];
  const [saved, setSaved] = useState<Chart | null>(chart);
  const [name, setName] = useState(chart?.name ?? '');
  const [type, setType] = useState<ChartType>(oneOf(CHART_TYPES, chart?.type) ?? 'line');
  const [datasetId, setDatasetId] = useState<number>(first?.dataset_id ?? datasets[0]?.id ?? 0);
  const [xAxis, setXAxis] = useState(column(first?.xAxis));
  // Null until the user decides: then it follows the X column's type (dates are grouped by time).
  const [isDateChoice, setIsDate] = useState<boolean | null>(first ? first.dateField !== null && first.dateField === first.xAxis : null);
  const [interval, setInterval] = useState<TimeInterval>(oneOf(TIME_INTERVALS, chart?.timeInterval) ?? 'day');
  const [dateFormat, setDateFormat] = useState(first?.dateFormat ?? '');
  const [cumulative, setCumulative] = useState((chart?.subType ?? '').toLowerCase().includes('addtimeseries'));
  const [series, setSeries] = useState<Series[]>(() => seriesOf(chart, datasets[0]?.id ?? 0));
  const [conditions, setConditions] = useState<Condition[]>(() => conditionsOf(first?.conditions ?? []).map((c) => ({ ...c, field: column(c.field) })));
  const [options, setOptions] = useState({
    displayLegend: chart?.displayLegend ?? false,
    dataLabels: chart?.dataLabels ?? false,
    stacked: chart?.stacked ?? false,
    stackPercent: chart?.stackPercent ?? false,
    horizontal: chart?.horizontal ?? false,
    showGrowth: chart?.showGrowth ?? false,
    invertGrowth: chart?.invertGrowth ?? false,
    isLogarithmic: chart?.isLogarithmic ?? false,
    dashedLastPoint: chart?.dashedLastPoint ?? false,
  });
  const [xLabelTicks, setXLabelTicks] = useState<(typeof X_TICKS)[number]>(oneOf(X_TICKS, chart?.xLabelTicks) ?? 'default');
  const [missingValues, setMissingValues] = useState<'zero' | 'preserve'>(chart?.missingValues === 'preserve' ? 'preserve' : 'zero');
  const [minValue, setMinValue] = useState(chart?.minValue === null || chart?.minValue === undefined ? '' : String(chart.minValue));
  const [maxValue, setMaxValue] = useState(chart?.maxValue === null || chart?.maxValue === undefined ? '' : String(chart.maxValue));
  const [content, setContent] = useState(chart?.content ?? '');
  const [bands, setBands] = useState<Band[]>(() => bandsOf(chart?.ranges));
  // Values the chart gives its dataset's {{variables}} (a dashboard filter's value still wins over them).
  const savedConfiguration = useMemo(() => configurationOf(first?.configuration), [first]);
  const [variableValues, setVariableValues] = useState<Record<string, string>>(() => variableValuesOf(savedConfiguration));
  const dataset = datasets.find((d) => d.id === datasetId);
  const variableNames = dataset ? [...variablesOf(dataset)].sort() : [];

  const columnsQuery = useQuery({ ...datasetColumnInfoQuery(team.id, datasetId), enabled: datasetId !== 0 && type !== 'markdown' });
  // Null while reading, [] when they could not be read.
  const columns: ColumnInfo[] | null = columnsQuery.data ?? (columnsQuery.isError ? [] : null);
  const names = (columns ?? []).map((c) => c.name);
  const xInfo = columns?.find((c) => c.name === xAxis);

  const usesX = X_TYPES.has(type);
  const usesY = type !== 'table' && type !== 'markdown';
  const multi = MULTI_SERIES.has(type);
  const splits = SPLIT_TYPES.has(type);
  // A date axis is offered only over a date column; a calendar (matrix) is always by date.
  const xIsDate = xInfo?.isDate === true;
  const isDate = type === 'matrix' ? true : xIsDate && (isDateChoice ?? true);
  const shownSeries = multi ? series : series.slice(0, 1);

  const configuredVariables = variableNames.filter((n) => (variableValues[n] ?? '').trim() !== '').map((n) => ({ name: n, value: variableValues[n]!.trim() }));
  const configOf = (s: Series) => ({
    dataset_id: s.datasetId,
    legend: s.legend || name || 'Series',
    xAxis: usesX ? field(xAxis) : null,
    dateField: usesX && isDate ? field(xAxis) : null,
    dateFormat: usesX && isDate && dateFormat !== '' ? dateFormat : null,
    yAxis: usesY ? field(s.yAxis) : null,
    yAxisOperation: usesY ? s.operation : null,
    formula: s.formula === '' ? null : s.formula,
    datasetColor: s.color,
    goal: numberOrNull(s.goal),
    // A split only where the type draws a series per value, its "Other" only over values that add up.
    ...(splits && s.splitBy !== ''
      ? {
          breakdown: field(s.splitBy),
          breakdownLimit: splitLimitOf(s.splitLimit),
          breakdownOther: foldsOther(s),
          breakdownOtherLabel: s.splitOtherLabel.trim() === '' ? null : s.splitOtherLabel.trim(),
        }
      : { breakdown: null, breakdownLimit: null, breakdownOther: false, breakdownOtherLabel: null }),
    conditions: conditions.filter((c) => (c.field ?? '') !== '').map((c) => ({ ...c, field: `root[].${c.field}` })),
    ...(variableNames.length > 0 || 'variables' in savedConfiguration ? { configuration: { ...savedConfiguration, variables: configuredVariables } } : {}),
  });
  const chartBody = () => ({
    name: name || 'Untitled chart',
    type,
    timeInterval: interval,
    includeZeros: true,
    subType: cumulative && isDate ? 'AddTimeseries' : null,
    ...options,
    xLabelTicks,
    missingValues,
    minValue: numberOrNull(minValue) === null ? null : Math.round(numberOrNull(minValue)!),
    maxValue: numberOrNull(maxValue) === null ? null : Math.round(numberOrNull(maxValue)!),
    content: type === 'markdown' ? content : null,
    ranges:
      type === 'gauge' && bands.length > 0
        ? bands.map((b) => ({ min: numberOrNull(b.min) ?? 0, max: numberOrNull(b.max) ?? 0, ...(b.label ? { label: b.label } : {}), color: b.color }))
        : null,
  });
  const previewBody: ChartPreview = { ...chartBody(), chartDatasetConfigs: shownSeries.map(configOf) };
  // The fields a chart of this type cannot be computed without.
  const complete = type === 'markdown' || (columns !== null && (!usesX || xAxis !== '') && (!usesY || shownSeries.every((s) => s.yAxis !== '' || s.operation === 'count')));
  const live = useLivePreview(projectId, previewBody, complete && type !== 'markdown');
  const savedId = saved?.id ?? 0;
  const answer = type === 'markdown' ? { body: previewBody, chartData: { content } } : live.answer;
  const card = useMemo(() => (answer ? previewChart(savedId, answer) : null), [answer, savedId]);

  // Unsaved edits: asked before the page or the screen is left.
  const snapshot = JSON.stringify(previewBody);
  // The form as it opened, once the columns (which decide the date axis) are known.
  const initial = useRef<string | null>(null);
  if (initial.current === null && (columns !== null || type === 'markdown')) initial.current = snapshot;
  const release = useUnsavedGuard(initial.current !== null && snapshot !== initial.current);

  /** Saves the chart (created, or updated with its dataset configs), then runs it so that its data is saved too. */
  const save = useMutation({
    mutationFn: async () => {
      let current = saved;
      const configs = type === 'markdown' ? [] : shownSeries.map(configOf);
      if (!current) {
        current = await ok(
          api.POST('/project/{project_id}/chart/quick-create', {
            params: { path: { project_id: projectId } },
            body: { ...chartBody(), draft: false, layout: { lg: [(slot % 2) * 6, 100 + slot, 6, 3] }, chartDatasetConfigs: configs },
          }),
        );
        setSeries(shownSeries.map((s, i) => ({ ...s, id: current!.ChartDatasetConfigs[i]?.id })));
      } else {
        const path = { project_id: projectId, id: current.id };
        await ok(api.PUT('/project/{project_id}/chart/{id}', { params: { path }, body: { ...chartBody(), draft: false } }));
        const kept = new Set<string>();
        for (const [i, s] of (type === 'markdown' ? [] : shownSeries).entries()) {
          if (s.id) {
            kept.add(s.id);
            await ok(api.PUT('/project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}', { params: { path: { ...path, cdc_id: s.id } }, body: configs[i]! }));
          } else {
            const created = await ok(api.POST('/project/{project_id}/chart/{id}/chart-dataset-config', { params: { path }, body: configs[i]! }));
            kept.add(created.id);
          }
        }
        for (const old of current.ChartDatasetConfigs) {
          if (!kept.has(old.id)) await ok(api.DELETE('/project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}', { params: { path: { ...path, cdc_id: old.id } } }));
        }
      }
      // Saved before it runs: a second try updates this chart rather than create another.
      setSaved(current);
      if (type !== 'markdown') await ok(api.POST('/project/{project_id}/chart/{id}/query', { params: { path: { project_id: projectId, id: current.id } }, body: {} }));
    },
    // The dashboard reads its charts again when it opens.
    onSettled: () => client.invalidateQueries({ queryKey: keys.project(projectId), refetchType: 'none' }),
    onSuccess: () => {
      release();
      navigate(`/dashboards/${projectId}`);
    },
  });

  // A new X column: its type decides again whether it is grouped by date.
  const shownX = useRef(xAxis);
  useEffect(() => {
    if (shownX.current === xAxis) return;
    shownX.current = xAxis;
    setIsDate(null);
  }, [xAxis]);

  const columnSelect = (label: string, value: string, set: (v: string) => void, { none = '(choose a column)', hint }: { none?: string; hint?: string } = {}) => (
    <Field label={label} hint={hint}>
      <select value={value} onChange={(e) => set(e.target.value)}>
        <option value="">{none}</option>
        {names.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </Field>
  );
  const updateSeries = (key: string, change: Partial<Series>) => setSeries((all) => all.map((s) => (s.key === key ? { ...s, ...change } : s)));
  // A split's series are told apart by their values' names only: its legend shows, unless turned off after.
  const splitSeries = (s: Series, column: string) => {
    if (s.splitBy === '' && column !== '') setOptions((o) => ({ ...o, displayLegend: true }));
    updateSeries(s.key, { splitBy: column });
  };
  const check = (key: keyof typeof options, label: string) => (
    <label className="check" key={key}>
      <input type="checkbox" checked={options[key]} onChange={(e) => setOptions({ ...options, [key]: e.target.checked })} /> {label}
    </label>
  );
  const axisTypes = type === 'line' || type === 'bar';

  return (
    <section aria-labelledby="chart-title" className="editor-grid">
      <form className="panel" onSubmit={(e) => e.preventDefault()} aria-labelledby="chart-title">
        <h1 id="chart-title">{saved ? `Chart: ${saved.name}` : 'New chart'}</h1>
        <Field label="Chart name">
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Chart type">
          <select value={type} onChange={(e) => setType(oneOf(CHART_TYPES, e.target.value) ?? 'line')}>
            {CHART_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_NAMES[t]}
              </option>
            ))}
          </select>
        </Field>
        {type === 'markdown' ? (
          <Field label="Text (Markdown)" hint="Headings, lists, links and emphasis; HTML is cleaned before it is shown.">
            <textarea rows={10} value={content} onChange={(e) => setContent(e.target.value)} />
          </Field>
        ) : (
          <>
            <Field label="Dataset">
              <select
                value={datasetId}
                onChange={(e) => {
                  const id = Number(e.target.value);
                  setDatasetId(id);
                  setSeries((all) => all.map((s) => ({ ...s, datasetId: id })));
                }}
              >
                {datasets.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name ?? `Dataset ${d.id}`}
                  </option>
                ))}
              </select>
            </Field>
            {columns === null ? (
              <p className="status" role="status">
                Reading the dataset's columns…
              </p>
            ) : null}
            {columns !== null && columns.length === 0 ? <ErrorBox error="The dataset's columns could not be read: run it on its page to see why." /> : null}
            {variableNames.length > 0 ? (
              <fieldset className="chart-variables">
                <legend>Variables of the dataset</legend>
                <p className="hint">The value this chart gives each {'{{variable}}'}; empty: the dataset's default. A dashboard filter on the variable still wins.</p>
                {variableNames.map((n) => (
                  <Field key={n} label={`Value of ${n}`}>
                    <input value={variableValues[n] ?? ''} onChange={(e) => setVariableValues({ ...variableValues, [n]: e.target.value })} />
                  </Field>
                ))}
              </fieldset>
            ) : null}
            {usesX ? columnSelect(type === 'matrix' ? 'X axis (a date column)' : 'X axis', xAxis, setXAxis) : null}
            {usesX && type !== 'matrix' ? (
              <label className="check">
                <input type="checkbox" checked={isDate} disabled={!xIsDate} aria-describedby="date-hint" onChange={(e) => setIsDate(e.target.checked)} /> The X axis is a date (group by time)
              </label>
            ) : null}
            {usesX && type !== 'matrix' && xAxis !== '' && columns !== null && !xIsDate ? (
              <p className="hint" id="date-hint">
                “{xAxis}” holds no dates: it is grouped by its values.
              </p>
            ) : null}
            {usesX && isDate && type !== 'matrix' ? (
              <>
                <Field label="Time interval">
                  <select value={interval} onChange={(e) => setInterval(oneOf(TIME_INTERVALS, e.target.value) ?? 'day')}>
                    {INTERVALS.map((i) => (
                      <option key={i} value={i}>
                        {INTERVAL_NAMES[i]}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field label="Date format" hint="Labels, e.g. MMM yyyy or dd/MM; empty for the interval's own">
                  <input value={dateFormat} onChange={(e) => setDateFormat(e.target.value)} />
                </Field>
                <label className="check">
                  <input type="checkbox" checked={cumulative} onChange={(e) => setCumulative(e.target.checked)} /> Cumulative (each point adds the ones before)
                </label>
              </>
            ) : null}
            {usesY ? (
              <fieldset className="series-list">
                <legend>{multi ? 'Series' : 'Value'}</legend>
                {shownSeries.map((s, i) => (
                  <div className="series" key={s.key} data-series={i}>
                    {multi ? (
                      <Field label={`Series ${i + 1} name`}>
                        <input value={s.legend} placeholder={name || 'Series'} onChange={(e) => updateSeries(s.key, { legend: e.target.value })} />
                      </Field>
                    ) : null}
                    {columnSelect(i === 0 ? 'Y axis' : `Y axis of series ${i + 1}`, s.yAxis, (v) => updateSeries(s.key, { yAxis: v }))}
                    <Field label={i === 0 ? 'Operation' : `Operation of series ${i + 1}`}>
                      <select value={s.operation} onChange={(e) => updateSeries(s.key, { operation: oneOf(OPERATIONS, e.target.value) ?? 'count' })}>
                        {OPERATIONS.map((o) => (
                          <option key={o} value={o}>
                            {OPERATION_NAMES[o]}
                          </option>
                        ))}
                      </select>
                    </Field>
                    <Field label={i === 0 ? 'Colour' : `Colour of series ${i + 1}`}>
                      <input type="color" value={s.color} onChange={(e) => updateSeries(s.key, { color: e.target.value })} />
                    </Field>
                    <Field label={i === 0 ? 'Number format' : `Number format of series ${i + 1}`} hint="A formula, e.g. €{val} or {val / 1000}k">
                      <input value={s.formula} onChange={(e) => updateSeries(s.key, { formula: e.target.value })} />
                    </Field>
                    {type !== 'pie' && type !== 'doughnut' && type !== 'polar' && type !== 'matrix' ? (
                      <Field label={i === 0 ? 'Goal' : `Goal of series ${i + 1}`} hint="A target value; progress towards it is shown">
                        <input inputMode="decimal" value={s.goal} onChange={(e) => updateSeries(s.key, { goal: e.target.value })} />
                      </Field>
                    ) : null}
                    {splits
                      ? columnSelect(i === 0 ? 'Split by' : `Split series ${i + 1} by`, s.splitBy, (v) => splitSeries(s, v), {
                          none: '(no split)',
                          hint: 'One series per value of this column, the largest first',
                        })
                      : null}
                    {splits && s.splitBy !== '' ? (
                      <div className="split-options">
                        <Field label={i === 0 ? 'Largest series shown' : `Largest series shown of series ${i + 1}`} hint={`1 to ${MAX_SPLIT_SERIES}; empty for ${MAX_SPLIT_SERIES}`}>
                          <input type="number" min={1} max={MAX_SPLIT_SERIES} value={s.splitLimit} onChange={(e) => updateSeries(s.key, { splitLimit: e.target.value })} />
                        </Field>
                        <label className="check">
                          <input
                            type="checkbox"
                            checked={foldsOther(s)}
                            disabled={!addsUp(s)}
                            aria-describedby={`split-other-${s.key}`}
                            onChange={(e) => updateSeries(s.key, { splitOther: e.target.checked })}
                          />{' '}
                          {i === 0 ? 'Sum the rest into one series' : `Sum the rest of series ${i + 1} into one series`}
                        </label>
                        <p className="hint" id={`split-other-${s.key}`}>
                          {addsUp(s) ? 'Otherwise the smaller series are left out, and the card says so.' : `Only a count or a sum adds up; with ${s.operation} the smaller series are left out, and the card says so.`}
                        </p>
                        {foldsOther(s) ? (
                          <Field label={i === 0 ? 'Name of that series' : `Name of that series of series ${i + 1}`}>
                            <input value={s.splitOtherLabel} placeholder="Other" onChange={(e) => updateSeries(s.key, { splitOtherLabel: e.target.value })} />
                          </Field>
                        ) : null}
                      </div>
                    ) : null}
                    {multi && shownSeries.length > 1 ? (
                      <button type="button" className="link danger" onClick={() => setSeries((all) => all.filter((x) => x.key !== s.key))}>
                        Remove series {i + 1}
                      </button>
                    ) : null}
                  </div>
                ))}
                {multi ? (
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      setSeries((all) => [...all, { key: crypto.randomUUID(), datasetId, legend: '', yAxis: '', operation: 'count', color: PALETTE[all.length % PALETTE.length]!, goal: '', formula: '', ...NO_SPLIT }])
                    }
                  >
                    Add a series
                  </button>
                ) : null}
              </fieldset>
            ) : null}
            <fieldset>
              <legend>Display</legend>
              {type !== 'table' && type !== 'kpi' && type !== 'avg' && type !== 'gauge' && type !== 'matrix' ? check('displayLegend', 'Show the legend') : null}
              {axisTypes ? check('dataLabels', 'Write the values on the chart (data labels)') : null}
              {type === 'bar' ? (
                <Field label="Stacking">
                  <select
                    value={options.stackPercent ? 'percent' : options.stacked ? 'normal' : 'none'}
                    onChange={(e) => setOptions({ ...options, stacked: e.target.value !== 'none', stackPercent: e.target.value === 'percent' })}
                  >
                    <option value="none">side by side</option>
                    <option value="normal">stacked</option>
                    <option value="percent">stacked to 100 %</option>
                  </select>
                </Field>
              ) : null}
              {type === 'bar' ? check('horizontal', 'Horizontal bars') : null}
              {axisTypes ? check('isLogarithmic', 'Logarithmic value axis') : null}
              {type === 'line' ? check('dashedLastPoint', 'Dash the last segment (a period in progress)') : null}
              {axisTypes || type === 'kpi' || type === 'avg' ? check('showGrowth', 'Show growth (last value against the one before)') : null}
              {options.showGrowth && (axisTypes || type === 'kpi' || type === 'avg') ? check('invertGrowth', 'A fall is good (invert growth colours)') : null}
              {axisTypes || type === 'radar' ? (
                <Field label="Missing points">
                  <select value={missingValues} onChange={(e) => setMissingValues(e.target.value === 'preserve' ? 'preserve' : 'zero')}>
                    <option value="zero">Plot as 0</option>
                    <option value="preserve">Leave a gap</option>
                  </select>
                </Field>
              ) : null}
              {axisTypes ? (
                <Field label="X axis labels">
                  <select value={xLabelTicks} onChange={(e) => setXLabelTicks(oneOf(X_TICKS, e.target.value) ?? 'default')}>
                    <option value="default">as many as fit</option>
                    <option value="half">every second</option>
                    <option value="third">every third</option>
                    <option value="fourth">every fourth</option>
                    <option value="showAll">all</option>
                  </select>
                </Field>
              ) : null}
              {axisTypes || type === 'gauge' ? (
                <div className="pair">
                  <Field label="Axis minimum">
                    <input inputMode="numeric" value={minValue} onChange={(e) => setMinValue(e.target.value)} />
                  </Field>
                  <Field label="Axis maximum">
                    <input inputMode="numeric" value={maxValue} onChange={(e) => setMaxValue(e.target.value)} />
                  </Field>
                </div>
              ) : null}
              {type === 'gauge' ? (
                <fieldset>
                  <legend>Gauge bands</legend>
                  {bands.map((b, i) => (
                    <div className="condition" key={b.key}>
                      <input aria-label={`Band ${i + 1} from`} inputMode="decimal" value={b.min} onChange={(e) => setBands(bands.map((x) => (x.key === b.key ? { ...x, min: e.target.value } : x)))} />
                      <input aria-label={`Band ${i + 1} to`} inputMode="decimal" value={b.max} onChange={(e) => setBands(bands.map((x) => (x.key === b.key ? { ...x, max: e.target.value } : x)))} />
                      <input aria-label={`Band ${i + 1} label`} value={b.label} onChange={(e) => setBands(bands.map((x) => (x.key === b.key ? { ...x, label: e.target.value } : x)))} />
                      <input aria-label={`Band ${i + 1} colour`} type="color" value={b.color} onChange={(e) => setBands(bands.map((x) => (x.key === b.key ? { ...x, color: e.target.value } : x)))} />
                      <button type="button" className="link" onClick={() => setBands(bands.filter((x) => x.key !== b.key))}>
                        Remove band {i + 1}
                      </button>
                    </div>
                  ))}
                  <button type="button" className="link" onClick={() => setBands([...bands, { key: crypto.randomUUID(), min: '', max: '', label: '', color: PALETTE[bands.length % PALETTE.length]! }])}>
                    Add a band
                  </button>
                </fieldset>
              ) : null}
            </fieldset>
            <fieldset>
              <legend>Conditions</legend>
              {conditions.map((c, i) => (
                <div className="condition" key={c.id ?? i}>
                  <select aria-label="Condition field" value={c.field ?? ''} onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, field: e.target.value } : x)))}>
                    <option value="">(field)</option>
                    {names.map((col) => (
                      <option key={col}>{col}</option>
                    ))}
                  </select>
                  <select
                    aria-label="Condition operator"
                    value={c.operator ?? 'is'}
                    onChange={(e) => setConditions(conditions.map((x, j) => (j === i ? { ...x, operator: oneOf(CONDITION_OPERATORS, e.target.value) ?? 'is' } : x)))}
                  >
                    {CONDITION_OPERATORS.map((o) => (
                      <option key={o} value={o}>
                        {OPERATOR_WORDS[o] ?? o}
                      </option>
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
          </>
        )}
        <ErrorBox error={save.error} />
        <div className="actions">
          {type !== 'markdown' ? (
            <button type="button" onClick={live.refresh} disabled={!complete || live.state === 'running'}>
              Refresh preview
            </button>
          ) : null}
          <button type="button" className="primary" disabled={save.isPending} onClick={() => save.mutate()}>
            Save chart
          </button>
        </div>
      </form>
      <div className="panel preview" data-preview-state={type === 'markdown' ? 'ready' : complete ? live.state : 'incomplete'}>
        <h2>Preview</h2>
        <p className="hint">Computed on the server as you change the form; nothing is saved until you press Save chart.</p>
        {type !== 'markdown' && live.state === 'running' ? (
          <p className="status" role="status">
            Updating the preview…
          </p>
        ) : null}
        {type !== 'markdown' && live.error ? <ErrorBox error={live.error} retry={live.refresh} /> : null}
        {!complete ? <Empty>Choose the fields to see the chart.</Empty> : card ? <ChartCard chart={card} /> : null}
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

/** What the report's chart card draws from: the previewed chart, with its display options, and its data. */
function previewChart(id: number, { body, chartData }: PreviewAnswer): PublicChart {
  return {
    id,
    name: body.name ?? null,
    type: body.type,
    subType: body.subType ?? null,
    chartData,
    chartDataUpdated: null,
    layout: null,
    displayLegend: body.displayLegend ?? false,
    dataLabels: body.dataLabels ?? false,
    stacked: body.stacked ?? false,
    stackPercent: body.stackPercent ?? false,
    missingValues: body.missingValues ?? 'zero',
    horizontal: body.horizontal ?? false,
    showGrowth: body.showGrowth ?? false,
    invertGrowth: body.invertGrowth ?? false,
    isLogarithmic: body.isLogarithmic ?? false,
    content: body.content ?? null,
    ranges: body.ranges ?? null,
    defaultRowsPerPage: 10,
    maxValue: body.maxValue ?? null,
    minValue: body.minValue ?? null,
    xLabelTicks: body.xLabelTicks ?? 'default',
    pointRadius: null,
    dashedLastPoint: body.dashedLastPoint ?? false,
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
      goal: c.goal ?? null,
      formula: c.formula ?? null,
    })),
  };
}
