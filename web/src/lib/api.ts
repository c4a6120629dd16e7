import { FILTER_PARAM_PREFIX } from './filters.js';
import type { Theme } from './types.js';

/** What the page learned from its address, with the token already taken out of the address bar. */
export interface LinkState {
  token: string | undefined;
  theme: Theme | undefined;
  /** Every other query parameter but the filters' (`f.<id>`): candidate variables, forwarded as they are. */
  params: [string, string][];
}

const THEMES: readonly string[] = ['light', 'dark', 'os'];

/** Where this tab keeps the token of the page it shows, so that a reload (of a filtered view too) opens it again. */
const tokenKey = () => `plotline.token:${window.location.pathname}`;

/**
 * Reads the token once and removes it from the address bar (history.replaceState) so that it does
 * not stay visible, get bookmarked or copied along. It lives on in memory for the API calls, and in
 * this tab's sessionStorage for a reload of the page (gone with the tab; another tab, a bookmark or
 * a copied address does not carry it).
 */
export function takeLinkState(): LinkState {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token') ?? undefined;
  const themeParam = url.searchParams.get('theme');
  const params: [string, string][] = [];
  for (const [key, value] of url.searchParams) if (key !== 'token' && key !== 'theme' && key !== 'pass' && !key.startsWith(FILTER_PARAM_PREFIX)) params.push([key, value]);
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  const kept = keptToken(token === '' ? undefined : token);
  return { token: kept, theme: themeParam !== null && THEMES.includes(themeParam) ? (themeParam as Theme) : undefined, params };
}

/** The address's token, kept for this tab; without one, the token this tab kept for this page. */
function keptToken(token: string | undefined): string | undefined {
  try {
    if (token !== undefined) window.sessionStorage.setItem(tokenKey(), token);
    else return window.sessionStorage.getItem(tokenKey()) ?? undefined;
  } catch {
    // Storage refused (a sandboxed frame, privacy settings): a reload then needs the link again.
  }
  return token;
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
export async function fetchShared<T>(path: string, link: LinkState, password?: string, query: [string, string][] = []): Promise<T> {
  return request<T>('GET', path, link, password, query);
}

/** POST to a public share endpoint (a filtered view), with the token and the link's parameters as the GET sends them. */
export async function postShared<T>(path: string, link: LinkState, body: unknown, password?: string): Promise<T> {
  return request<T>('POST', path, link, password, [], body);
}

async function request<T>(method: 'GET' | 'POST', path: string, link: LinkState, password: string | undefined, extra: [string, string][], body?: unknown): Promise<T> {
  const query = new URLSearchParams([...link.params, ...extra]);
  if (link.token) query.set('token', link.token);
  if (link.theme && method === 'GET') query.set('theme', link.theme);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (password !== undefined) headers['pass'] = password;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${path}${query.toString() !== '' ? `?${query.toString()}` : ''}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached');
  }
  const answer = (await response.json().catch(() => null)) as { error?: string; code?: string } | null;
  if (!response.ok) {
    const retry = Number(response.headers.get('retry-after'));
    throw new ApiError(response.status, answer?.code ?? 'HTTP_ERROR', answer?.error ?? `The server answered ${response.status}`, Number.isFinite(retry) && retry > 0 ? retry : undefined);
  }
  return answer as T;
}
