import type { UseQueryResult } from '@tanstack/react-query';
import { cloneElement, Component, useId, type ReactElement, type ReactNode } from 'react';

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

/** What an action just did, announced to screen readers; nothing without a message. */
export function Success({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="success" role="status">
      {message}
    </p>
  );
}

/** Loading / error / ready in one place, so every screen shows all three. */
export function Load<T>({ query, what, children }: { query: UseQueryResult<T>; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorBox error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

interface MutationState {
  isPending: boolean;
  error: Error | null;
  submittedAt: number;
}

/**
 * The busy flag and the error of a form's mutations, shown in one place: busy while any of them
 * runs; the error of the one started last, so starting another clears the last one's error.
 */
export function mutationsState(...mutations: MutationState[]): { busy: boolean; error: Error | null } {
  const last = mutations.reduce((a, b) => (b.submittedAt > a.submittedAt ? b : a));
  return { busy: mutations.some((m) => m.isPending), error: last.error };
}

/** A screen that fails to load its code (offline, a new release) or to render shows why instead of a blank page; another path clears it. */
export class ScreenBoundary extends Component<{ path: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: { path: string }) {
    if (previous.path !== this.props.path && this.state.error) this.setState({ error: null });
  }

  override render() {
    return this.state.error ? <ErrorBox error={this.state.error} retry={() => window.location.reload()} /> : this.props.children;
  }
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
