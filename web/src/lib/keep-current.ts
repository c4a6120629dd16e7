import { ApiError } from './api.js';

/**
 * A page left open (a wall screen, a tab kept for the day, an embed on an intranet page) reads its
 * data again this often while it is in view: the saved data moves with the scheduled refreshes.
 */
export const KEEP_CURRENT_MS = 60_000;

/**
 * Calls `read` every KEEP_CURRENT_MS while the page is in view, and at once when it comes back
 * into view after as long away (a tab, a screen that slept). Answers a stop.
 */
export function keepCurrent(read: () => Promise<void>): () => void {
  let last = Date.now();
  const beat = () => {
    last = Date.now();
    void read();
  };
  const timer = window.setInterval(() => {
    if (document.visibilityState === 'visible') beat();
  }, KEEP_CURRENT_MS);
  const onVisible = () => {
    if (document.visibilityState === 'visible' && Date.now() - last >= KEEP_CURRENT_MS) beat();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/**
 * Whether a read that failed is worth trying again at the next beat, the page kept as it is: the
 * network (status 0), too many requests, a server error. Anything else (a link revoked or expired,
 * a password asked) is for the page to say.
 */
export function passingFailure(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;
}
