import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The typed client of the public API (types generated from /openapi.json). The session travels in
 * the HttpOnly cookie the API sets at login, never in script: fetch sends it to this origin only.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The data of an answer, or an ApiError carrying the API's own `error` text. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached; check your connection and try again.');
  }
  if (!result.response.ok || result.error !== undefined) {
    const body = (result.error ?? {}) as { error?: string; code?: string };
    throw new ApiError(result.response.status, body.code ?? 'HTTP_' + result.response.status, body.error ?? result.response.statusText);
  }
  return result.data as T;
}
