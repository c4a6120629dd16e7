import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionGate } from './connection-gate.js';

describe('ConnectionGate', () => {
  afterEach(() => vi.useRealTimers());

  it('admits up to its size, queues the rest in order, and refuses past the queue limit', async () => {
    const gate = new ConnectionGate({ size: 2, queueLimit: 2, waitTimeoutMs: 60_000 });
    const first = await gate.acquire();
    const second = await gate.acquire();
    const order: string[] = [];
    const third = gate.acquire().then((release) => (order.push('third'), release));
    const fourth = gate.acquire().then((release) => (order.push('fourth'), release));
    expect([gate.inUse, gate.waiting]).toEqual([2, 2]);
    await expect(gate.acquire()).rejects.toMatchObject({ statusCode: 503, code: 'SOURCE_BUSY', headers: { 'retry-after': '60' } });
    first();
    first(); // releasing twice frees one slot only
    const releaseThird = await third;
    expect([gate.inUse, gate.waiting]).toEqual([2, 1]);
    second();
    const releaseFourth = await fourth;
    expect(order).toEqual(['third', 'fourth']);
    releaseThird();
    releaseFourth();
    expect([gate.inUse, gate.waiting]).toEqual([0, 0]);
  });

  it('ends a wait past the timeout in SOURCE_BUSY, and an aborted wait leaves the queue', async () => {
    vi.useFakeTimers();
    const gate = new ConnectionGate({ size: 1, queueLimit: 10, waitTimeoutMs: 5_000 });
    const held = await gate.acquire();
    const waiting = gate.acquire();
    const caught = waiting.catch((error: unknown) => error);
    const controller = new AbortController();
    const aborted = gate.acquire(controller.signal).catch((error: unknown) => error);
    controller.abort(new Error('caller gave up'));
    expect(await aborted).toMatchObject({ message: 'caller gave up' });
    expect(gate.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await caught).toMatchObject({ code: 'SOURCE_BUSY', statusCode: 503 });
    expect(gate.waiting).toBe(0);
    held();
    expect(gate.inUse).toBe(0);
  });
});
