import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { filterName, inputTypeOf, isListType, typedValue, valueText } from '../../../src/lib/filters';
import { VALUELESS_OPERATORS } from '../../../../src/render/card-notes';
import { filterValuesQuery } from '../api/queries';
import type { FilterConfiguration } from '../api/types';
import { useSession } from '../session';
import { DateRangeField } from './DateRangeField';
import { ValuePicker } from './ValuePicker';


/**
 * The value of one filter, as the dashboard tries it: a date range; a list of the field's values,
 * searched as one types, when the filter names where its values come from (`valuesFrom`); else a
 * text, number or date field. Each change is handed up as the filter's configuration with the new
 * value; nothing is saved here.
 */
export function FilterControl({ config, onChange }: { config: FilterConfiguration; onChange: (config: FilterConfiguration) => void }) {
  const { team } = useSession();
  const client = useQueryClient();
  const id = useId();
  const name = filterName(config);
  const text = config.type === 'date' ? '' : valueText(config.value);
  const [draft, setDraft] = useState(text);
  useEffect(() => setDraft(text), [text]);

  if (config.type === 'date') {
    return <DateRangeField label={name} range={config} onChange={(range) => onChange({ ...config, preset: range.preset, startDate: range.startDate, endDate: range.endDate })} />;
  }
  const label = (
    <label className="field-label" htmlFor={id}>
      {name}
      {config.type === 'field' ? <span className="muted"> ({config.operator})</span> : null}
    </label>
  );
  if (config.type === 'field' && VALUELESS_OPERATORS.includes(config.operator)) {
    return (
      <div className="filter-control">
        <span className="field-label">{name}</span>
        <span className="muted">{config.operator === 'isNull' ? 'is empty' : 'is not empty'}</span>
      </div>
    );
  }
  const typed = (value: string): unknown => (config.type === 'variable' ? typedValue(config.dataType, value) : value === '' ? undefined : value);
  const commit = (value: string) => {
    if (value !== text) onChange({ ...config, value: typed(value) });
  };
  const from = config.valuesFrom;
  if (from) {
    const load = async (search: string) => {
      const answer = await client.fetchQuery(filterValuesQuery(team.id, from.datasetId, from.field, search));
      return { values: answer.values, truncated: answer.truncated, missing: answer.missing };
    };
    return (
      <div className="filter-control">
        {label}
        <ValuePicker id={id} label={name} value={text} load={load} onChange={commit} />
      </div>
    );
  }
  const type = config.type === 'variable' ? inputTypeOf(config.dataType) : 'text';
  return (
    <div className="filter-control">
      {label}
      <input
        id={id}
        type={type}
        value={draft}
        placeholder={config.type === 'variable' && isListType(config.dataType) ? 'a, b, c' : 'Any value'}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => commit(draft.trim())}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(draft.trim());
        }}
      />
    </div>
  );
}
