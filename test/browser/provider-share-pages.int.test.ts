import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCustomerioFake, type CustomerioFake } from '../helpers/customerio-fake.js';
import { installFirestore } from '../helpers/firestore-fake.js';
import { installGa } from '../helpers/ga-fake.js';
import { makeServiceAccount, startFakeGoogle, type FakeGoogle } from '../helpers/google-fakes.js';
import { startMongoWireServer, type MongoWireServer } from '../helpers/mongo-wire-server.js';
import { installRtdb } from '../helpers/rtdb-fake.js';
import { sourceJourney, type JourneyClient, type JourneyInput } from '../helpers/source-journey.js';
import { axe, browserAvailable, launchBrowser, screenshotPath, startLiveApp, type LiveApp } from './browser-env.js';
import { fetchRequester } from './share-seed.js';

/** Canvas pixels that are not fully transparent. */
const PAINTED = `(() => {
  const canvas = document.querySelector('canvas');
  if (!canvas) return -1;
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted += 1;
  return painted;
})()`;

/** A chart over each provider source, drawn by the embed page in Chromium from its share link. */
describe.skipIf(!browserAvailable())('provider charts on share pages in Chromium', () => {
  let live: LiveApp;
  let browser: Browser;
  let google: FakeGoogle;
  let mongo: MongoWireServer;
  let cio: CustomerioFake;
  let client: JourneyClient;
  const account = makeServiceAccount('pages-project');
  const cioKey = `cio-${randomBytes(6).toString('hex')}`;
  const day = (ago: number) => new Date(Date.now() - ago * 86_400_000);
  const compact = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

  beforeAll(async () => {
    google = await startFakeGoogle();
    google.trust(account);
    mongo = await startMongoWireServer();
    cio = await startCustomerioFake(cioKey);
    live = await startLiveApp({
      PLOTLINE_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      PLOTLINE_GOOGLE_TOKEN_URL: google.tokenUrl,
      PLOTLINE_FIRESTORE_URL: google.url,
      PLOTLINE_GA_DATA_URL: google.url,
      PLOTLINE_GA_ADMIN_URL: google.url,
      PLOTLINE_CUSTOMERIO_URL: cio.url,
    });
    const api = fetchRequester(live.url);
    client = {
      request: (options) => api(options),
      signup: async () => {
        const email = `pages-${randomBytes(4).toString('hex')}@example.com`;
        const user = (await api({ method: 'POST', url: '/user', payload: { name: 'Pages', email, password: 'correct horse battery' } })).json();
        const teamId = (await api({ method: 'GET', url: '/team', token: user.token })).json()[0].id as number;
        return { token: user.token as string, teamId };
      },
    };
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await live?.close();
    await google?.close();
    await mongo?.close();
    await cio?.close();
  });

  async function seedAll(): Promise<Record<string, JourneyInput>> {
    const admin = await new MongoClient(mongo.url).connect();
    await admin
      .db('pages')
      .collection('orders')
      .insertMany([
        { country: 'FR', total: 10 },
        { country: 'DE', total: 25 },
        { country: 'FR', total: 5 },
      ]);
    await admin.close();
    installFirestore(google, 'pages-project').seed({
      'orders/a': { total: 3, at: day(2) },
      'orders/b': { total: 4, at: day(1) },
      'orders/c': { total: 6, at: day(1) },
    });
    const rtdb = installRtdb(google);
    rtdb.data = { scores: { a: { level: 'gold', score: 5 }, b: { level: 'silver', score: 3 }, c: { level: 'gold', score: 2 } } };
    const ga = installGa(google, new Date().toISOString().slice(0, 10));
    ga.readable.add('777');
    ga.properties.set('777', [
      { date: compact(day(3)), activeUsers: 4 },
      { date: compact(day(2)), activeUsers: 9 },
      { date: compact(day(1)), activeUsers: 6 },
    ]);
    const line = { xAxis: 'root[].date', dateField: 'root[].date', yAxisOperation: 'sum', legend: 'Value' };
    return {
      mongodb: {
        connection: { type: 'mongodb', connectionString: mongo.url.replace('/?', '/pages?'), dbName: 'pages' },
        dataRequest: { query: "collection('orders').find({})" },
        chart: { name: 'Mongo totals', type: 'bar' },
        config: { xAxis: 'root[].country', yAxis: 'root[].total', yAxisOperation: 'sum', legend: 'Total' },
      },
      firestore: {
        connection: { type: 'firestore', firebaseServiceAccount: account.json },
        dataRequest: { query: 'orders', configuration: { orderBy: 'at', orderByDirection: 'asc' } },
        chart: { name: 'Firestore per day', type: 'line', timeInterval: 'day' },
        config: { xAxis: 'root[].at', dateField: 'root[].at', yAxis: 'root[].total', yAxisOperation: 'sum', legend: 'Total' },
      },
      realtimedb: {
        connection: { type: 'realtimedb', connectionString: rtdb.url, firebaseServiceAccount: account.json },
        dataRequest: { route: 'scores' },
        chart: { name: 'RTDB by level', type: 'bar' },
        config: { xAxis: 'root[].level', yAxis: 'root[].score', yAxisOperation: 'sum', legend: 'Score' },
      },
      googleAnalytics: {
        connection: { type: 'googleAnalytics', firebaseServiceAccount: account.json },
        dataRequest: { configuration: { propertyId: '777', metrics: 'activeUsers', dimensions: 'date', startDate: '7daysAgo' } },
        chart: { name: 'GA users', type: 'line', timeInterval: 'day' },
        config: { ...line, yAxis: 'root[].activeUsers' },
      },
      customerio: {
        connection: { type: 'customerio', password: cioKey },
        dataRequest: { route: 'campaigns/7/metrics', configuration: { period: 'days', steps: 5 } },
        chart: { name: 'Emails sent', type: 'line', timeInterval: 'day' },
        config: { ...line, yAxis: 'root[].sent' },
      },
    };
  }

  let inputs: Record<string, JourneyInput>;
  beforeAll(async () => {
    inputs = await seedAll();
  }, 60_000);

  // One test per source, each with room for a slow shared machine (a journey is ~15 requests and a page load).
  it.each(['mongodb', 'firestore', 'realtimedb', 'googleAnalytics', 'customerio'])('draws a chart over %s from its share link', async (type) => {
    const journey = await sourceJourney(client, inputs[type]!);
    expect(journey.shareUrl, type).toMatch(new RegExp(`^${live.url}/chart/[\\w-]+/embedded\\?token=`));
    const page = await browser.newPage();
    try {
      await page.goto(journey.shareUrl);
      await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 20_000 });
      expect(await page.getAttribute('body', 'data-state'), type).toBe('ready');
      expect((await page.evaluate(PAINTED)) as number, type).toBeGreaterThan(500);
      await axe(page, `report of a ${type} chart`);
      await page.screenshot({ path: screenshotPath(`provider-${type}`) });
      // The page holds the chart's numbers, never the credentials behind them.
      const html = await page.content();
      expect(html).not.toContain(cioKey);
      expect(html).not.toContain(account.privateKey.split('\n')[5]!);
    } finally {
      await page.close();
    }
  }, 120_000);
});
