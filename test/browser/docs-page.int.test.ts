import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser, screenshotPath, startLiveApp, type LiveApp } from './browser-env.js';

/**
 * `/docs` in Chromium: Swagger UI draws every operation of /openapi.json from the page's own files,
 * reads the spec once (the preload is used, not fetched again), and a second visit is served from
 * the browser cache and 304s. How fast is measured by `npm run bench:docs`, not here.
 */
describe.skipIf(!browserAvailable())('/docs in Chromium', () => {
  let live: LiveApp;
  let browser: Browser;

  beforeAll(async () => {
    live = await startLiveApp();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await live?.close();
  });

  it('draws every operation, reads the spec once (preloaded), and revalidates it on the next visit', async () => {
    const doc = (await (await fetch(`${live.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (err) => problems.push(err.message));
      const requests: string[] = [];
      page.on('request', (request) => requests.push(new URL(request.url()).pathname));

      await page.goto(`${live.url}/docs/`);
      await expect.poll(() => page.locator('.opblock').count(), { timeout: 90_000 }).toBe(operations);
      await page.locator('#operations-charts-previewChart').waitFor();
      await page.screenshot({ path: screenshotPath('docs-page') });
      expect(requests.filter((path) => path === '/openapi.json')).toHaveLength(1);
      expect(requests.some((path) => path.includes('standalone-preset'))).toBe(false);

      // Again in the same context: the spec is revalidated (a 304 carries its headers only) and the
      // hashed script and stylesheet are not fetched at all.
      await page.reload();
      await expect.poll(() => page.locator('.opblock').count(), { timeout: 90_000 }).toBe(operations);
      const timing = (await page.evaluate(
        `performance.getEntriesByType('resource').map((r) => ({ path: new URL(r.name).pathname, transferSize: r.transferSize, encodedBodySize: r.encodedBodySize }))`,
      )) as { path: string; transferSize: number; encodedBodySize: number }[];
      const spec = timing.find((r) => r.path === '/openapi.json')!;
      expect(spec.encodedBodySize).toBeGreaterThan(4_000);
      expect(spec.transferSize).toBeLessThan(2_000);
      for (const asset of timing.filter((r) => r.path.startsWith('/docs/static/'))) expect(asset.transferSize, asset.path).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
