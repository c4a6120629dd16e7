import { cloneElement, useCallback, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';

export type Async<T> = { state: 'loading' } | { state: 'error'; error: Error } | { state: 'ready'; data: T };

/** Loads on mount and whenever `deps` change; `reload` runs it again. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): [Async<T>, () => void] {
  const [value, setValue] = useState<Async<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const call = ++latest.current;
    setValue((v) => (v.state === 'ready' ? v : { state: 'loading' }));
    load().then(
      (data) => call === latest.current && setValue({ state: 'ready', data }),
      (error: unknown) => call === latest.current && setValue({ state: 'error', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return [value, useCallback(() => setTick((t) => t + 1), [])];
}

/** Runs an action with a busy flag and the API's error text. */
export function useAction(): { busy: boolean; error: string | null; run: <T>(action: () => Promise<T>) => Promise<T | undefined>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>) => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="status" role="status" data-state="loading">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <div className="empty" data-state="empty">
      {children}
    </div>
  );
}

export function ErrorBox({ error, retry }: { error: string | Error | null; retry?: () => void }) {
  if (!error) return null;
  return (
    <div className="error" role="alert" data-state="error">
      <span>{typeof error === 'string' ? error : error.message}</span>
      {retry ? (
        <button type="button" className="link" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Loading / error / ready in one place, so every screen shows all three. */
export function Load<T>({ value, what, retry, children }: { value: Async<T>; what: string; retry?: () => void; children: (data: T) => ReactNode }) {
  if (value.state === 'loading') return <Loading what={what} />;
  if (value.state === 'error') return <ErrorBox error={value.error} {...(retry ? { retry } : {})} />;
  return <>{children(value.data)}</>;
}

/** A labelled control: the label names the control alone (a wrapping label would add a select's options to its name). */
export function Field({ label, children, hint }: { label: string; children: ReactElement<{ id?: string; 'aria-describedby'?: string }>; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {cloneElement(children, { id, ...(hint ? { 'aria-describedby': `${id}-hint` } : {}) })}
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}
