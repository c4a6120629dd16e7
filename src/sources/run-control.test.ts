import { describe, expect, it } from 'vitest';
import { RunControl } from './run-control.js';

const later = <T>(ms: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

describe('RunControl', () => {
  it('passes results through before the deadline', async () => {
    const control = new RunControl({ timeoutMs: 1_000 });
    await expect(control.race(later(5, 'ok'))).resolves.toBe('ok');
    control.dispose();
  });

  it('rejects at the deadline after the cancel hooks ran, and hands a late result to onLate', async () => {
    const control = new RunControl({ timeoutMs: 50 });
    const events: string[] = [];
    control.onAbort(async () => {
      await later(20, undefined);
      events.push('cancelled');
    });
    const late: string[] = [];
    // The work finishes only when the test says so: the deadline cannot lose a race against it.
    let finish: (value: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = resolve));
    await expect(control.race(work, (value) => late.push(value))).rejects.toMatchObject({ statusCode: 504, code: 'SOURCE_TIMEOUT' });
    expect(events).toEqual(['cancelled']);
    expect(late).toEqual([]);
    finish('client');
    await later(0, undefined);
    expect(late).toEqual(['client']);
  });

  it('reports a driver error caused by the cancellation as the timeout', async () => {
    const control = new RunControl({ timeoutMs: 30 });
    let fail: (error: Error) => void = () => undefined;
    const work = new Promise((_, reject) => (fail = reject));
    control.onAbort(() => fail(new Error('canceling statement due to user request')));
    await expect(control.race(work)).rejects.toMatchObject({ code: 'SOURCE_TIMEOUT' });
  });

  it('turns the caller abort into RUN_ABORTED and AbortSignal.timeout into SOURCE_TIMEOUT', async () => {
    const controller = new AbortController();
    const aborted = new RunControl({ timeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(aborted.race(later(1_000, 1))).rejects.toMatchObject({ code: 'RUN_ABORTED' });
    const timed = new RunControl({ timeoutMs: 10_000, signal: AbortSignal.timeout(10) });
    await expect(timed.race(later(1_000, 1))).rejects.toMatchObject({ code: 'SOURCE_TIMEOUT' });
  });
});
