import type { Theme } from './types.js';

/** What the page learned from its address, with the token already taken out of the address bar. */
export interface LinkState {
  token: string | undefined;
  theme: Theme | undefined;
  /** Every other query parameter: candidate variables, forwarded as they are. */
  params: [string, string][];
}

const THEMES: readonly string[] = ['light', 'dark', 'os'];

/**
 * Reads the token once and removes it from the address bar (history.replaceState) so that it does
 * not stay visible, get bookmarked or copied along; it lives on in memory for the API calls.
 */
export function takeLinkState(): LinkState {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token') ?? undefined;
  const themeParam = url.searchParams.get('theme');
  const params: [string, string][] = [];
  for (const [key, value] of url.searchParams) if (key !== 'token' && key !== 'theme' && key !== 'pass') params.push([key, value]);
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  return { token: token === '' ? undefined : token, theme: themeParam !== null && THEMES.includes(themeParam) ? (themeParam as Theme) : undefined, params };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** GET a public share endpoint; the password travels in the `pass` header, never in the URL. */
export async function fetchShared<T>(path: string, link: LinkState, password?: string): Promise<T> {
  const query = new URLSearchParams(link.params);
  if (link.token) query.set('token', link.token);
  if (link.theme) query.set('theme', link.theme);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (password !== undefined) headers['pass'] = password;
  let response: Response;
  try {
    response = await fetch(`${path}${query.toString() !== '' ? `?${query.toString()}` : ''}`, { headers, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached');
  }
  const body = (await response.json().catch(() => null)) as { error?: string; code?: string } | null;
  if (!response.ok) {
    const retry = Number(response.headers.get('retry-after'));
    throw new ApiError(response.status, body?.code ?? 'HTTP_ERROR', body?.error ?? `The server answered ${response.status}`, Number.isFinite(retry) && retry > 0 ? retry : undefined);
  }
  return body as T;
}
