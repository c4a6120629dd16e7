/**
 * How fast `/docs` (the API reference: Swagger UI over /openapi.json) renders in Chromium, served by
 * the whole service on loopback, side by side with the way it was served before (the stock
 * @fastify/swagger-ui plugin: stand-alone layout, uncompressed files revalidated on every visit, the
 * spec with every error response written out), on a second server in the same process. For each
 * network profile and cache state, the median of RUNS page loads (the two servers alternate) of:
 *   - fcp: first contentful paint (ms after navigation start);
 *   - rendered: the first operation of the reference drawn (ms), what a reader waits for;
 *   - load: the load event (ms);
 *   - bytes: what went over the wire for the page, its scripts and styles and the spec (encoded
 *     sizes with headers, from the page's resource timing), and requests: how many.
 * Profiles: loopback (no shaping) and "broadband" (Chromium's network emulation: 20 Mbit/s down,
 * 5 Mbit/s up, 40 ms latency), where bytes turn into time. Cache: cold (a new browser context) and
 * warm (the same page opened again in that context). Machines are shared: read the ratios.
 * The last line printed is one JSON object with every figure.
 *
 *   npm run bench:docs            (RUNS=7 npm run bench:docs for more runs)
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../test/browser/browser-env.js';
import { startBenchService } from './lib/service.js';

const RUNS = Number(process.env['RUNS'] ?? 5);

const PROFILES = {
  loopback: null,
  broadband: { offline: false, latency: 40, downloadThroughput: (20 * 1024 * 1024) / 8, uploadThroughput: (5 * 1024 * 1024) / 8 },
} as const;

interface Sample {
  fcp: number;
  rendered: number;
  load: number;
  bytes: number;
  requests: number;
}

// Runs in the page before its own scripts: notes when the first operation appears.
const OBSERVE_RENDER = `
  new MutationObserver((_, observer) => {
    if (document.querySelector('.opblock')) {
      window.__docsRendered = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(page: Page, url: string): Promise<Sample> {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction('typeof window.__docsRendered === "number"', undefined, { timeout: 120_000 });
  return page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      fcp: fcp ? fcp.startTime : NaN,
      rendered: window.__docsRendered,
      load: nav.loadEventEnd,
      bytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
      requests: 1 + resources.length,
    };
  })()`);
}

function summary(samples: Sample[]): Sample {
  return {
    fcp: Math.round(median(samples.map((s) => s.fcp))),
    rendered: Math.round(median(samples.map((s) => s.rendered))),
    load: Math.round(median(samples.map((s) => s.load))),
    bytes: median(samples.map((s) => s.bytes)),
    requests: median(samples.map((s) => s.requests)),
  };
}

type Result = { cold: Sample; warm: Sample };

/** RUNS cold and warm loads of each URL, alternating between them run by run. */
async function scenario(browser: Browser, urls: Record<string, string>, profile: keyof typeof PROFILES): Promise<Record<string, Result>> {
  const samples = Object.fromEntries(Object.keys(urls).map((name) => [name, { cold: [] as Sample[], warm: [] as Sample[] }]));
  for (let run = 0; run < RUNS; run++) {
    for (const [name, url] of Object.entries(urls)) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        await context.addInitScript(OBSERVE_RENDER);
        const page = await context.newPage();
        const conditions = PROFILES[profile];
        if (conditions) {
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', conditions);
        }
        samples[name]!.cold.push(await measure(page, url));
        // The same reader comes back: what the browser cache saves.
        samples[name]!.warm.push(await measure(page, url));
      } finally {
        await context.close();
      }
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, { cold: summary(s.cold), warm: summary(s.warm) }]));
}

/** The document as it was before error responses were shared: each written out where it is used. */
function expandErrorResponses(doc: Record<string, any>): Record<string, unknown> {
  const copy = structuredClone(doc);
  const error = copy.components?.responses?.Error;
  if (!error) return copy;
  const inline = { description: error.description, content: { 'application/json': { schema: copy.components.schemas.Error } } };
  for (const item of Object.values<Record<string, any>>(copy.paths)) {
    for (const operation of Object.values<any>(item)) {
      for (const [status, response] of Object.entries<any>(operation?.responses ?? {})) {
        if (response?.$ref === '#/components/responses/Error') operation.responses[status] = structuredClone(inline);
      }
    }
  }
  delete copy.components.responses.Error;
  delete copy.components.schemas.Error;
  return copy;
}

const service = await startBenchService({ LOG_LEVEL: 'warn' });
const document = (await (await fetch(`${service.base}/openapi.json`)).json()) as Record<string, any>;
const before = Fastify({ logger: false });
await before.register(swagger, { mode: 'static', specification: { document: expandErrorResponses(document) as never } });
await before.register(swaggerUi, { routePrefix: '/docs' });
const beforeBase = await before.listen({ port: 0, host: '127.0.0.1' });
const browser = await launchBrowser();
try {
  const urls = { now: `${service.base}/docs/`, before: `${beforeBase}/docs/` };
  const specSize = async (url: string) => {
    const res = await fetch(url, { headers: { 'accept-encoding': 'br, gzip' } });
    return { bytes: (await res.arrayBuffer()).byteLength, encoding: res.headers.get('content-encoding') ?? 'identity' };
  };
  // One load of each first, so that no scenario pays for a server's first answers (and the
  // compressed forms exist).
  for (const url of Object.values(urls)) {
    const warmup = await browser.newContext();
    await warmup.addInitScript(OBSERVE_RENDER);
    await measure(await warmup.newPage(), url);
    await warmup.close();
  }
  // The service compresses its answers in the background after the first visit: measure once it has.
  const html = await (await fetch(urls.now)).text();
  const served = [urls.now, ...[...html.matchAll(/(?:src|href)="(\/(?:docs\/static\/|openapi\.json)[^"]*)"/g)].map((m) => `${service.base}${m[1]}`)];
  for (const url of served) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await fetch(url, { headers: { 'accept-encoding': 'br' } });
      await res.arrayBuffer();
      if (res.headers.get('content-encoding') === 'br') break;
      if (Date.now() > deadline) throw new Error(`${url} is still not compressed after 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  // Node's fetch decodes the body: the decoded spec size, and how it was sent.
  const figures: Record<string, any> = { runs: RUNS, spec: { now: await specSize(`${service.base}/openapi.json`), before: await specSize(`${beforeBase}/docs/json`) } };
  for (const profile of Object.keys(PROFILES) as (keyof typeof PROFILES)[]) {
    const result = await scenario(browser, urls, profile);
    figures[profile] = result;
    for (const cache of ['cold', 'warm'] as const) {
      for (const name of Object.keys(urls)) {
        const s = result[name]![cache];
        process.stdout.write(
          `${profile.padEnd(9)} ${cache} ${name.padEnd(6)}: first paint ${s.fcp} ms, reference drawn ${s.rendered} ms, load ${s.load} ms, ${(s.bytes / 1024).toFixed(0)} KiB in ${s.requests} requests\n`,
        );
      }
      const now = result['now']![cache];
      const was = result['before']![cache];
      const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      figures[profile][`${cache}Ratio`] = { fcp: ratio(now.fcp, was.fcp), rendered: ratio(now.rendered, was.rendered), load: ratio(now.load, was.load), bytes: ratio(now.bytes, was.bytes) };
      process.stdout.write(`${profile.padEnd(9)} ${cache} now/before: ${JSON.stringify(figures[profile][`${cache}Ratio`])}\n`);
    }
  }
  process.stdout.write(`${JSON.stringify({ bench: 'docs', unit: { time: 'ms', size: 'bytes' }, ...figures })}\n`);
} finally {
  await browser.close();
  await before.close();
  await service.close();
}
