import { createContext, useCallback, useContext, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';

/** The editor's own routes live under /app/, so a reload never lands on an API path. */
export const BASE = '/app';

/** `block` registers a check run before leaving the screen (unsaved edits); false stays. It returns its removal. */
const RouterContext = createContext<{ path: string; navigate: (to: string) => void; block: (check: () => boolean) => () => void }>({ path: '/', navigate: () => undefined, block: () => () => undefined });

function current(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

export function Router({ children }: { children: ReactNode }) {
  const [path, setPath] = useState(current);
  useEffect(() => {
    const onPop = () => setPath(current());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const checks = useRef(new Set<() => boolean>());
  const block = useCallback((check: () => boolean) => {
    checks.current.add(check);
    return () => void checks.current.delete(check);
  }, []);
  const navigate = (to: string) => {
    for (const check of checks.current) if (!check()) return;
    window.history.pushState(null, '', BASE + to);
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
