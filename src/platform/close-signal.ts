import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client goes away before its answer was written (a closed tab, a cancelled
 * fetch), so a run on its behalf stops on the source instead of running to its time limit for
 * nobody. A reply that was sent in full closes without aborting.
 */
export function closeSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const raw = reply.raw;
  raw.once('close', () => {
    if (!raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
