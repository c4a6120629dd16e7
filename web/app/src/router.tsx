import { createContext, useCallback, useContext, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';

/** The editor's own routes live under /app/, so a reload never lands on an API path. */
export const BASE = '/app';

/**
 * `block` registers a check run before leaving the screen (unsaved edits), by a link or by the
 * browser's Back and Forward; false stays. It returns its removal.
 */
const RouterContext = createContext<{ path: string; navigate: (to: string) => void; block: (check: () => boolean) => () => void }>({ path: '/', navigate: () => undefined, block: () => () => undefined });

function current(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

/** An entry of the tab's history that the editor shows: its address and its place among the entries. */
interface Entry {
  href: string;
  position: number;
}

/** The place the editor wrote into an entry's state (every entry it adds has one). */
function positionOf(state: unknown): number | undefined {
  const position = (state as { position?: unknown } | null)?.position;
  return typeof position === 'number' ? position : undefined;
}

/** The entry the page opened on, given a place unless it had one already (a reload keeps it). */
function openingEntry(): Entry {
  const position = positionOf(window.history.state) ?? 0;
  window.history.replaceState({ position }, '');
  return { href: window.location.href, position };
}

export function Router({ children }: { children: ReactNode }) {
  const [path, setPath] = useState(current);
  const checks = useRef(new Set<() => boolean>());
  const [opening] = useState(openingEntry);
  // The entry on show: where a refused Back or Forward returns to.
  const shown = useRef(opening);
  const block = useCallback((check: () => boolean) => {
    checks.current.add(check);
    return () => void checks.current.delete(check);
  }, []);
  const mayLeave = useCallback(() => [...checks.current].every((check) => check()), []);
  useEffect(() => {
    const onPop = (event: PopStateEvent) => {
      const position = positionOf(event.state);
      // The browser has already moved to the other entry: a refusal steps back to the one on show,
      // which leaves the entries after it in place (that step's own popstate changes nothing).
      const otherScreen = window.location.pathname !== new URL(shown.current.href).pathname;
      if (otherScreen && !mayLeave()) {
        if (position !== undefined) window.history.go(shown.current.position - position);
        // An entry the editor did not add has no place to count from: the address is written anew.
        else window.history.pushState({ position: shown.current.position }, '', shown.current.href);
        return;
      }
      shown.current = { href: window.location.href, position: position ?? shown.current.position };
      setPath(current());
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [mayLeave]);
  const navigate = (to: string) => {
    if (!mayLeave()) return;
    const position = shown.current.position + 1;
    window.history.pushState({ position }, '', BASE + to);
    shown.current = { href: window.location.href, position };
    setPath(to);
    window.scrollTo(0, 0);
  };
  return <RouterContext.Provider value={{ path, navigate, block }}>{children}</RouterContext.Provider>;
}

export function useRouter() {
  return useContext(RouterContext);
}

/** `/dashboards/:id` against a path: the named parts, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const re = new RegExp('^' + pattern.replace(/:(\w+)/g, (_m, name: string) => (names.push(name), '([^/]+)')) + '/?$');
  const found = re.exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1]!)]));
}

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  const { navigate, path } = useRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
  const active = path === to || (to !== '/' && path.startsWith(to + '/'));
  return (
    <a href={BASE + to} onClick={onClick} className={className} aria-current={active ? 'page' : undefined}>
      {children}
    </a>
  );
}
