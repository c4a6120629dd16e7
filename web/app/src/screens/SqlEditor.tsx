import type { EditorView } from 'codemirror';
import { useEffect, useRef, useState } from 'react';

/** CodeMirror is loaded when a query editor first opens, not with the rest of the editor. */
const loadCodeMirror = () => Promise.all([import('codemirror'), import('@codemirror/lang-sql')]);

/**
 * The page's own colours, inherited into the shadow root through custom properties. The editor lives
 * in a shadow root so CodeMirror's styles go into an adopted stylesheet: in the document it would
 * add a <style> element, which the page's CSP (no inline styles) refuses.
 */
const themeSpec = {
  '&': { minHeight: '8rem', color: 'var(--fg)', backgroundColor: 'var(--bg)', fontSize: '0.9rem' },
  '.cm-content': { caretColor: 'var(--fg)', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
  '.cm-gutters': { backgroundColor: 'var(--card)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--grid)' },
  '&.cm-focused': { outline: '2px solid var(--accent)' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': { backgroundColor: 'var(--grid) !important' },
};

/** CodeMirror 6 with SQL highlighting; `{{variables}}` are plain text to it. */
export function SqlEditor({ value, onChange, label }: { value: string; onChange: (next: string) => void; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(onChange);
  latest.current = onChange;
  const [failed, setFailed] = useState(false);
  const initial = useRef(value);
  initial.current = value;
  useEffect(() => {
    let cancelled = false;
    loadCodeMirror().then(([{ EditorView, basicSetup }, { sql }]) => {
      if (cancelled || !host.current) return;
      const shadow = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
      view.current = new EditorView({
        doc: initial.current,
        root: shadow,
        parent: shadow,
        extensions: [
          basicSetup,
          EditorView.theme(themeSpec),
          sql(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current(update.state.doc.toString());
          }),
        ],
      });
    }, () => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      view.current?.destroy();
    };
    // Once: later values reach the editor through the effect below.
  }, []);
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);
  if (failed) return <textarea className="sql-fallback" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} rows={8} />;
  return <div className="sql-editor" ref={host} data-testid="sql-editor" />;
}
