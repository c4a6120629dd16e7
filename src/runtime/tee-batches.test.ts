import { describe, expect, it } from 'vitest';
import { teeBatches } from './tee-batches.js';

async function* batches(n: number, failAt?: number) {
  for (let i = 0; i < n; i++) {
    if (i === failAt) throw new Error('source died');
    yield [{ i }];
  }
}

describe('teeBatches', () => {
  it('feeds every consumer every batch from one read, holding only what is not consumed yet', async () => {
    let reads = 0;
    const counted = (async function* () {
      for await (const batch of batches(100)) {
        reads += 1;
        yield batch;
      }
    })();
    const [a, b] = teeBatches(counted, 2);
    const consume = async (source: AsyncIterable<Record<string, unknown>[]>) => {
      let sum = 0;
      for await (const batch of source) {
        for (const row of batch) sum += row["i"] as number;
      }
      return sum;
    };
    expect(await Promise.all([consume(a!), consume(b!)])).toEqual([4950, 4950]);
    expect(reads).toBe(100);
  });

  it('keeps feeding the others when one stops early, and passes an error to all', async () => {
    const [a, b] = teeBatches(batches(10), 2);
    const first = (async () => {
      for await (const _ of a!) break;
      return 'stopped';
    })();
    let count = 0;
    for await (const _ of b!) count += 1;
    expect(await first).toBe('stopped');
    expect(count).toBe(10);

    const [c, d] = teeBatches(batches(10, 3), 2);
    const drain = async (source: AsyncIterable<unknown>) => {
      for await (const _ of source) void _;
    };
    await expect(Promise.all([drain(c!), drain(d!)])).rejects.toThrow('source died');
  });
});
