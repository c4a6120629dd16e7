import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { OPERATOR_WORDS } from '../../../../src/render/card-notes';
import { VARIABLE_TYPES, VARIABLE_TYPE_NAMES, dayOf, rangeIsSet, typedValue, valueText, variableTypeOf, type DateRange } from '../../../src/lib/filters';
import type { VariableType } from '../../../src/lib/types';
import { api, ok } from '../api/client';
import { knownVariables, reachFilter } from '../api/filter-scope';
import { CONDITION_OPERATORS, oneOf } from '../api/narrow';
import { datasetColumnsQuery, keys } from '../api/queries';
import type { Chart, DashboardFilter, Dataset, FilterConfiguration } from '../api/types';
import { useSession } from '../session';
import { ErrorBox, Field } from '../ui';
import { DateRangeField } from './DateRangeField';
import { FilterReachNote, useFilterReach } from './FilterReach';

type Kind = FilterConfiguration['type'];
const KINDS: { kind: Kind; text: string }[] = [
  { kind: 'date', text: 'Date range' },
  { kind: 'field', text: 'Field value' },
  { kind: 'variable', text: 'Variable' },
];
const KIND_NAMES: readonly Kind[] = KINDS.map((k) => k.kind);

/** The id the filter being written goes by in its reach request (it may have none yet). */
const REACH_ID = 'draft';

const field = (column: string) => `root[].${column}`;
const column = (path: string | undefined) => (path ?? '').replace(/^root\[\]\./, '');

/**
 * Adds a filter or changes one: what it filters (a date range, a field's value, a dataset variable),
 * which charts it reaches, where its list of values comes from, its default value, and whether it
 * shows on the shared report ("show on report") and, for a variable, whether viewers may change it.
 */
export function FilterForm({ projectId, filter, charts, datasets, onDone }: { projectId: number; filter: DashboardFilter | null; charts: Chart[]; datasets: Dataset[]; onDone: (message: string | null) => void }) {
  const { team } = useSession();
  const client = useQueryClient();
  const titleId = useId();
  const saved = filter?.configuration;
  const [kind, setKind] = useState<Kind>(saved?.type ?? 'date');
  const [label, setLabel] = useState(saved?.label ?? '');
  const [onReport, setOnReport] = useState(filter?.onReport ?? false);
  const [chartIds, setChartIds] = useState<number[]>(saved && saved.type !== 'variable' ? (saved.charts ?? []) : []);
  // A saved date filter always has a range (the server requires one): a new one starts at the last 30 days.
  const [range, setRange] = useState<DateRange>(saved?.type === 'date' ? { preset: saved.preset, startDate: saved.startDate, endDate: saved.endDate } : { preset: 'last_30_days' });
  // Until one is chosen: the saved one, else the dashboard's first (the list may still be loading).
  const [datasetChoice, setDatasetId] = useState<number | null>(saved && saved.type !== 'date' ? (saved.valuesFrom?.datasetId ?? null) : null);
  const datasetId = datasetChoice ?? datasets[0]?.id ?? 0;
  const [fieldColumn, setFieldColumn] = useState(saved?.type === 'field' ? column(saved.field) : '');
  const [operator, setOperator] = useState(saved?.type === 'field' ? (oneOf(CONDITION_OPERATORS, saved.operator) ?? 'is') : 'is');
  const [listValues, setListValues] = useState(saved && saved.type !== 'date' ? saved.valuesFrom !== undefined : true);
  const [valuesColumn, setValuesColumn] = useState(saved && saved.type !== 'date' ? column(saved.valuesFrom?.field) : '');
  const [variable, setVariable] = useState(saved?.type === 'variable' ? saved.variable : '');
  const [dataType, setDataType] = useState<VariableType>(saved?.type === 'variable' ? saved.dataType : 'string');
  const [allowValueChange, setAllowValueChange] = useState(saved?.type === 'variable' ? saved.allowValueChange !== false : true);
  const [value, setValue] = useState(saved && saved.type !== 'date' ? valueText(saved.value) : '');
  const columns = useQuery({ ...datasetColumnsQuery(team.id, datasetId), enabled: datasetId !== 0 && (kind === 'field' || (kind === 'variable' && listValues)) });
  const variables = knownVariables(datasets);

  const configuration = (): FilterConfiguration => {
    const common = { ...(saved?.id ? { id: saved.id } : {}), ...(label.trim() !== '' ? { label: label.trim() } : {}) };
    const scope = chartIds.length > 0 ? { charts: chartIds } : {};
    if (kind === 'date') {
      const start = dayOf(range.startDate);
      const end = dayOf(range.endDate);
      return { type: 'date', ...common, ...(range.preset ? { preset: range.preset } : {}), ...(start ? { startDate: start } : {}), ...(end ? { endDate: end } : {}), ...scope };
    }
    if (kind === 'field') {
      return {
        type: 'field',
        ...common,
        field: field(fieldColumn),
        operator,
        ...(value.trim() !== '' ? { value: value.trim() } : {}),
        ...(listValues ? { valuesFrom: { datasetId, field: field(fieldColumn) } } : {}),
        ...scope,
      };
    }
    const typed = typedValue(dataType, value.trim());
    return {
      type: 'variable',
      ...common,
      variable: variable.trim(),
      dataType,
      allowValueChange,
      ...(typed !== undefined ? { value: typed } : {}),
      ...(listValues && valuesColumn !== '' ? { valuesFrom: { datasetId, field: field(valuesColumn) } } : {}),
    };
  };

  // Which charts the filter being written would reach, before it is saved or has a value (the
  // value plays no part); asked once what decides it is chosen.
  const decided = kind === 'field' ? fieldColumn !== '' : kind === 'variable' ? variable.trim() !== '' : true;
  const reach = useFilterReach(projectId, charts, decided ? { filters: [reachFilter(REACH_ID, configuration())] } : null);

  const save = useMutation({
    mutationFn: () => {
      const body = { configuration: configuration(), onReport };
      return filter
        ? ok(api.PUT('/project/{id}/dashboard-filter/{fid}', { params: { path: { id: projectId, fid: filter.id } }, body }))
        : ok(api.POST('/project/{id}/dashboard-filter', { params: { path: { id: projectId } }, body }));
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.dashboardFilters(projectId) });
      onDone(filter ? 'Filter saved.' : 'Filter added.');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const missing =
    kind === 'date' && !rangeIsSet(range)
      ? 'Choose a default range, or the days of a custom one.'
      : kind === 'field' && fieldColumn === ''
        ? 'Choose the field to filter on.'
        : kind === 'variable' && variable.trim() === ''
          ? 'Name the variable.'
          : null;

  const columnOptions = (
    <>
      <option value="">(choose a column)</option>
      {(columns.data ?? []).map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </>
  );
  const datasetSelect = (text: string) => (
    <Field label={text}>
      <select value={datasetId} onChange={(e) => setDatasetId(Number(e.target.value))}>
        {datasets.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name ?? `Dataset ${d.id}`}
          </option>
        ))}
      </select>
    </Field>
  );
  const chartChoice = (hint: string) => (
    <fieldset className="filter-charts">
      <legend>Charts</legend>
      <p className="hint">{hint}</p>
      {charts.map((chart) => (
        <label className="check" key={chart.id}>
          <input type="checkbox" checked={chartIds.includes(chart.id)} onChange={(e) => setChartIds(e.target.checked ? [...chartIds, chart.id] : chartIds.filter((id) => id !== chart.id))} /> {chart.name ?? `Chart ${chart.id}`}
        </label>
      ))}
    </fieldset>
  );

  return (
    <form className="panel filter-form" aria-labelledby={titleId} onSubmit={submit}>
      <h2 id={titleId}>{filter ? 'Edit the filter' : 'Add a filter'}</h2>
      {filter ? null : (
        <Field label="Filter on">
          <select value={kind} onChange={(e) => setKind(oneOf(KIND_NAMES, e.target.value) ?? 'date')}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.text}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label="Label" hint="What viewers read above the control; empty: the field or variable name.">
        <input value={label} onChange={(e) => setLabel(e.target.value)} />
      </Field>

      {kind === 'date' ? (
        <>
          <DateRangeField label="Default range" range={range} onChange={setRange} anyTime={false} />
          {chartChoice('None chosen: every chart with a date field.')}
        </>
      ) : null}

      {kind === 'field' ? (
        <>
          {datasetSelect('Dataset')}
          <Field label="Field">
            <select value={fieldColumn} onChange={(e) => setFieldColumn(e.target.value)}>
              {columnOptions}
            </select>
          </Field>
          {columns.isPending && datasetId !== 0 ? <p className="status" role="status">Reading the dataset's columns…</p> : null}
          <Field label="Operator">
            <select value={operator} onChange={(e) => setOperator(oneOf(CONDITION_OPERATORS, e.target.value) ?? 'is')}>
              {CONDITION_OPERATORS.map((o) => (
                <option key={o} value={o}>
                  {OPERATOR_WORDS[o] ?? o}
                </option>
              ))}
            </select>
          </Field>
          <label className="check">
            <input type="checkbox" checked={listValues} onChange={(e) => setListValues(e.target.checked)} /> Offer the field's values in a list
          </label>
          <Field label="Default value" hint="Empty: the filter applies once a value is chosen.">
            <input value={value} onChange={(e) => setValue(e.target.value)} />
          </Field>
          {chartChoice('None chosen: every chart.')}
        </>
      ) : null}

      {kind === 'variable' ? (
        <>
          <Field label="Variable" hint="A {{variable}} of the dashboard's datasets.">
            <input
              list={`${titleId}-variables`}
              value={variable}
              onChange={(e) => {
                setVariable(e.target.value);
                const known = variableTypeOf(variables.get(e.target.value.trim()));
                if (known) setDataType(known);
              }}
            />
          </Field>
          <datalist id={`${titleId}-variables`}>
            {[...variables.keys()].map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
          <Field label="Type">
            <select value={dataType} onChange={(e) => setDataType(variableTypeOf(e.target.value) ?? 'string')}>
              {VARIABLE_TYPES.map((t) => (
                <option key={t} value={t}>
                  {VARIABLE_TYPE_NAMES[t]}
                </option>
              ))}
            </select>
          </Field>
          <label className="check">
            <input type="checkbox" checked={allowValueChange} onChange={(e) => setAllowValueChange(e.target.checked)} /> Viewers may change it
          </label>
          <label className="check">
            <input type="checkbox" checked={listValues} onChange={(e) => setListValues(e.target.checked)} /> Offer a list of values from a dataset
          </label>
          {listValues ? (
            <>
              {datasetSelect('Values from dataset')}
              <Field label="Values from field">
                <select value={valuesColumn} onChange={(e) => setValuesColumn(e.target.value)}>
                  {columnOptions}
                </select>
              </Field>
            </>
          ) : null}
          <Field label="Default value" hint={dataType.endsWith('[]') ? 'Several values: separate them with commas.' : 'Empty: the dataset default applies.'}>
            <input value={value} onChange={(e) => setValue(e.target.value)} />
          </Field>
        </>
      ) : null}

      <FilterReachNote reach={reach.reach?.get(REACH_ID)} live />
      {reach.error ? <p className="hint">Which charts this filter reaches could not be read.</p> : null}
      <label className="check">
        <input type="checkbox" checked={onReport} onChange={(e) => setOnReport(e.target.checked)} /> Show on the report
      </label>
      {missing ? <p className="hint">{missing}</p> : null}
      <ErrorBox error={save.error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending || missing !== null}>
          {filter ? 'Save filter' : 'Add filter'}
        </button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

