import { useId } from 'react';
import { DATE_PRESETS, PRESET_LABELS, dayOf, presetOf, type DateRange } from '../../../src/lib/filters';

/**
 * A date filter's value: "Any time", a preset (resolved by the server in the dashboard's timezone),
 * or a custom range of days whose ends may each stay open. Without `anyTime` (a saved filter's
 * range, which the server requires) "Any time" is not offered.
 */
export function DateRangeField({ label, range, onChange, anyTime = true }: { label: string; range: DateRange; onChange: (range: DateRange) => void; anyTime?: boolean }) {
  const id = useId();
  const start = dayOf(range.startDate);
  const end = dayOf(range.endDate);
  const choice = range.preset ?? (start !== '' || end !== '' ? 'custom' : '');
  return (
    <div className="date-range">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        value={choice}
        onChange={(e) => {
          const preset = presetOf(e.target.value);
          onChange(preset === 'custom' ? { preset, startDate: start || undefined, endDate: end || undefined } : preset ? { preset } : {});
        }}
      >
        {anyTime || choice === '' ? <option value="">{anyTime ? 'Any time' : '(choose a range)'}</option> : null}
        {DATE_PRESETS.map((preset) => (
          <option key={preset} value={preset}>
            {PRESET_LABELS[preset]}
          </option>
        ))}
      </select>
      {choice === 'custom' ? (
        <div className="date-range-days">
          <label htmlFor={`${id}-from`}>From</label>
          <input id={`${id}-from`} type="date" value={start} max={end || undefined} onChange={(e) => onChange({ preset: 'custom', startDate: e.target.value || undefined, endDate: end || undefined })} />
          <label htmlFor={`${id}-to`}>To</label>
          <input id={`${id}-to`} type="date" value={end} min={start || undefined} onChange={(e) => onChange({ preset: 'custom', startDate: start || undefined, endDate: e.target.value || undefined })} />
        </div>
      ) : null}
    </div>
  );
}
