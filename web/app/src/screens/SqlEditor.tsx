import type { EditorView } from 'codemirror';
import type { SQLNamespace } from '@codemirror/lang-sql';
import { useEffect, useRef, useState } from 'react';

/** CodeMirror is loaded when a query editor first opens, not with the rest of the editor. */
const loadCodeMirror = () => Promise.all([import('codemirror'), import('@codemirror/lang-sql'), import('@codemirror/autocomplete')]);

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
  '.cm-tooltip': { backgroundColor: 'var(--card)', color: 'var(--fg)', border: '1px solid var(--border)' },
  // Its kind icons are glyphs that many fonts lack (shown as empty boxes).
  '.cm-completionIcon': { display: 'none' },
  // The page's text and background colours swapped: readable in light and dark schemes alike.
  '.cm-tooltip.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--fg)', color: 'var(--bg)' },
  '.cm-tooltip.cm-tooltip-autocomplete ul li[aria-selected] .cm-completionMatchedText': { color: 'var(--bg)' },
};

export type SqlDialect = 'postgres' | 'mysql' | 'other';

/**
 * CodeMirror 6 with SQL highlighting and completion of the connection's tables and columns;
 * `{{variables}}` are plain text to it. The editor owns its text: `initialValue` is read once and
 * every change goes out through `onChange`, never back in through a prop (a controlled CodeMirror
 * that is sent its own text back loses keystrokes typed in between and can loop on updates). To put
 * other text in, mount it again with another `key`. Ctrl/Cmd+Enter calls `onRun`.
 */
export function SqlEditor({
  initialValue,
  onChange,
  onRun,
  label,
  schema,
  dialect = 'other',
}: {
  initialValue: string;
  onChange: (next: string) => void;
  onRun?: () => void;
  label: string;
  schema?: SQLNamespace | undefined;
  dialect?: SqlDialect;
}) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef({ onChange, onRun, schema });
  latest.current = { onChange, onRun, schema };
  const [failed, setFailed] = useState(false);
  const [fallback, setFallback] = useState(initialValue);
  // What was typed before CodeMirror arrived (into the fallback text area) is where it starts from.
  const text = useRef(initialValue);
  useEffect(() => {
    let cancelled = false;
    let view: EditorView | null = null;
    // Ctrl/Cmd+Enter, caught on the way down, before CodeMirror's own keymap (where it inserts a line).
    const element = host.current;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || !latest.current.onRun) return;
      event.preventDefault();
      event.stopPropagation();
      latest.current.onRun();
    };
    element?.addEventListener('keydown', onKey, true);
    loadCodeMirror().then(([{ EditorView, basicSetup }, { sql, schemaCompletionSource, PostgreSQL, MySQL, StandardSQL }, { closeCompletion, completionStatus }]) => {
      if (cancelled || !host.current) return;
      const shadow = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
      const language = dialect === 'postgres' ? PostgreSQL : dialect === 'mysql' ? MySQL : StandardSQL;
      view = new EditorView({
        doc: text.current,
        root: shadow,
        parent: shadow,
        extensions: [
          basicSetup,
          EditorView.theme(themeSpec),
          sql({ dialect: language, upperCaseKeywords: false }),
          // The schema arrives after the editor (and may change): read at each completion.
          language.language.data.of({ autocomplete: (context: Parameters<ReturnType<typeof schemaCompletionSource>>[0]) => schemaCompletionSource({ schema: latest.current.schema ?? {}, dialect: language })(context) }),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            // A list that opened after focus left (typing, then at once another field) is closed: it would stay over the page.
            if (!update.view.hasFocus && completionStatus(update.state) !== null) queueMicrotask(() => closeCompletion(update.view));
            if (!update.docChanged) return;
            text.current = update.state.doc.toString();
            latest.current.onChange(text.current);
          }),
        ],
      });
    }, () => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      element?.removeEventListener('keydown', onKey, true);
      view?.destroy();
    };
    // Once per mount: the text lives in the editor from here on.
  }, []);
  if (failed)
    return (
      <textarea
        className="sql-fallback"
        aria-label={label}
        value={fallback}
        rows={8}
        onChange={(e) => {
          setFallback(e.target.value);
          text.current = e.target.value;
          onChange(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && onRun) {
            e.preventDefault();
            onRun();
          }
        }}
      />
    );
  return <div className="sql-editor" ref={host} data-testid="sql-editor" />;
}

/** A connection's saved schema (`{tables: [{name, columns: [{name, type}]}]}`) as CodeMirror's namespace, or undefined. */
export function sqlNamespaceOf(schema: unknown): { namespace: SQLNamespace; tables: { name: string; columns: { name: string; type: string }[] }[] } | undefined {
  if (!schema || typeof schema !== 'object' || !Array.isArray((schema as { tables?: unknown }).tables)) return undefined;
  const tables: { name: string; columns: { name: string; type: string }[] }[] = [];
  for (const table of (schema as { tables: unknown[] }).tables) {
    if (!table || typeof table !== 'object') continue;
    const { name, columns } = table as { name?: unknown; columns?: unknown };
    if (typeof name !== 'string') continue;
    const cols = Array.isArray(columns)
      ? columns.flatMap((c) => (c && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string' ? [{ name: (c as { name: string }).name, type: String((c as { type?: unknown }).type ?? '') }] : []))
      : [];
    tables.push({ name, columns: cols });
  }
  const namespace: Record<string, string[]> = {};
  for (const table of tables) namespace[table.name] = table.columns.map((c) => c.name);
  return { namespace, tables };
}
