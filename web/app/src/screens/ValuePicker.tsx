import { useEffect, useRef } from 'react';
import { createCombobox, type Combobox, type ValueList } from '../../../src/lib/combobox';

/**
 * The report page's value list (a combobox searched as one types), mounted in React: one widget for
 * both pages, so they behave and read the same. `load` and `onChange` may change on every render;
 * the widget always calls the latest ones.
 */
export function ValuePicker({ id, label, value, load, onChange }: { id: string; label: string; value: string; load: (search: string, signal: AbortSignal) => Promise<ValueList>; onChange: (value: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const combo = useRef<Combobox | null>(null);
  const latest = useRef({ load, onChange });
  useEffect(() => {
    latest.current = { load, onChange };
  });
  useEffect(() => {
    const created = createCombobox({ id, label, value, load: (search, signal) => latest.current.load(search, signal), onChange: (next) => latest.current.onChange(next) });
    host.current!.replaceChildren(created.element);
    combo.current = created;
    return () => created.destroy();
    // Created once per control; the value follows below.
  }, [id, label]);
  useEffect(() => {
    // A value set elsewhere (Undo, a saved filter): shown, unless the person is typing in it.
    const current = combo.current;
    if (current && document.activeElement !== current.input && current.input.value !== value) current.setValue(value);
  }, [value]);
  return <div className="value-picker" ref={host} />;
}
