import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// The dummy hash belongs to the container's password hasher; this checks it is ready before the first login.
describe('login for an unknown e-mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('finds the dummy hash already computed at boot, so the first such login costs what a wrong password costs', async () => {
    const pending = Symbol('pending');
    // A settled promise wins a race against an already-resolved value listed after it; a pending one loses.
    expect(await Promise.race([t.container.passwords.dummyHash(), Promise.resolve(pending)])).not.toBe(pending);
    const res = await t.request({ method: 'POST', url: '/user/login', payload: { email: 'nobody@example.com', password: 'whatever123' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_CREDENTIALS');
  });
});
