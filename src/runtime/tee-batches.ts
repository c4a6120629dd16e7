import type { Row } from '../sources/index.js';

/**
 * Splits one iteration of batches into `n` iterables. Each holds the batches it has not consumed
 * yet; one that stops early is dropped from the fan-out. An error reaches every consumer.
 */
export function teeBatches(source: AsyncIterable<Row[]>, n: number): AsyncIterable<Row[]>[] {
  const iterator = source[Symbol.asyncIterator]();
  const queues: (Row[][] | null)[] = Array.from({ length: n }, () => []);
  let pulling: Promise<void> | undefined;
  let done = false;
  const pull = (): Promise<void> =>
    (pulling ??= iterator.next().then(
      (result) => {
        pulling = undefined;
        if (result.done) done = true;
        else for (const queue of queues) queue?.push(result.value);
      },
      (error: unknown) => {
        pulling = undefined;
        throw error;
      },
    ));
  return queues.map((_, index) => ({
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const queue = queues[index]!;
          if (queue.length > 0) {
            yield queue.shift()!;
            continue;
          }
          if (done) return;
          await pull();
        }
      } finally {
        queues[index] = null;
      }
    },
  }));
}
