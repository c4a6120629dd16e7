import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** What `GET /connection-providers` advertises must be what the source registry can do. */
describe('connection providers agree with the sources', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('claims query, schema, streaming and pushdown only where a source provides them', async () => {
    const me = await t.signup('Providers');
    const providers = (await t.request({ method: 'GET', url: '/connection-providers', token: me.token })).json() as {
      type: string;
      subType: string;
      capabilities: { query: boolean; schema: boolean; streaming: boolean; pushdown: boolean };
    }[];
    expect(providers.length).toBe(12);
    for (const provider of providers) {
      let source;
      try {
        source = t.container.sources.capabilities({ type: provider.type, subType: provider.subType });
      } catch {
        source = undefined;
      }
      if (!source) {
        expect(provider.capabilities, provider.subType).toEqual({ test: false, schema: false, query: false, pushdown: false, streaming: false });
        continue;
      }
      expect(provider.capabilities.query, provider.subType).toBe(true);
      expect(provider.capabilities.schema, provider.subType).toBe(source.schema);
      expect(provider.capabilities.streaming, provider.subType).toBe(source.streaming);
      expect(provider.capabilities.pushdown, provider.subType).toBe(source.pushdown !== false);
    }
  });
});
