/**
 * Soak: the built server (`node scripts/start.mjs`, its own process, temp data dir, loopback) under
 * a steady mix at ~50 requests/s for N minutes: reads (GET /project/{id}, GET /team), writes
 * (PUT /project/{id}), chart queries (cached, and with runtime variables drawn from 2,000 values so
 * the result cache keeps filling) and share views (GET /project/dashboard/{brewName}?token=).
 * Samples the server's RSS every second and reports, for the start and each minute, the RSS at its
 * end and its low and high (GC makes single samples noisy; the lows show a leak); the last three
 * minutes are flat when their lows are within 10% of each other. Prints one JSON object.
 *
 *   npm run bench:soak [-- --minutes 10 --rate 50]   (PLOTLINE_BENCH_POSTGRES_URL=postgres://… for another server)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { request } from 'undici';

const SERVER = process.env['PLOTLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const MINUTES = arg('minutes', 10);
const RATE = arg('rate', 50);
const MAX_IN_FLIGHT = 64;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 102.4) / 10;
}

async function main(): Promise<void> {
  const database = `plotline_bench_soak_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const dbUrl = new URL(SERVER);
  dbUrl.pathname = `/${database}`;
  const seed = new pg.Client({ connectionString: dbUrl.toString() });
  await seed.connect();
  await seed.query(`
    create table orders as
      select g as id, timestamptz '2025-01-01' + ((g % 365) * interval '1 day') as created_at,
             (array['FR','DE','US','GB','ES','IT'])[1 + g % 6] as country, ((g * 7919) % 10000) / 100.0 as amount
        from generate_series(1, 5000) g;`);
  await seed.end();

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-soak-'));
  const server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PLOTLINE_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PLOTLINE_RATE_LIMIT: '1000000',
      PLOTLINE_RATE_LIMIT_AUTHENTICATED: '1000000',
      PLOTLINE_SHARE_RATE_LIMIT: '1000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  server.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  try {
    for (let i = 0; i < 6000 && !/listening on (http:\/\/\S+)/.test(out); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const base = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (!base) throw new Error(`the server did not start: ${out}`);

    let token = '';
    const call = async (method: string, route: string, body?: unknown, auth = true): Promise<{ status: number; text: string; json: () => unknown }> => {
      const res = await request(`${base}${route}`, {
        method: method as 'GET',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(auth && token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, text, json: () => JSON.parse(text) as unknown };
    };
    const must = async (method: string, route: string, body?: unknown) => {
      const res = await call(method, route, body);
      if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status}`);
      return res.json() as Record<string, unknown>;
    };

    token = (await must('POST', '/user', { name: 'Soak', email: 'soak@example.com', password: 'soak password 1' }))['token'] as string;
    const teamId = ((await must('GET', '/team')) as unknown as { id: number }[])[0]!.id;
    const conn = await must('POST', `/team/${teamId}/connections`, {
      name: 'soak', type: 'postgres', host: dbUrl.hostname, port: dbUrl.port || '5432', dbName: database, username: decodeURIComponent(dbUrl.username) || 'postgres',
      ...(dbUrl.password ? { password: decodeURIComponent(dbUrl.password) } : {}),
    });
    const project = await must('POST', '/project', { name: 'Soak', team_id: teamId, timezone: 'UTC' });
    const dataset = await must('POST', `/team/${teamId}/datasets/quick-create`, {
      name: 'Orders',
      project_ids: [project['id']],
      dataRequests: [{ connection_id: conn['id'], query: 'select * from orders where amount >= {{min}}', variableBindings: [{ name: 'min', type: 'number', default_value: '0' }] }],
    });
    const charts = await Promise.all(
      [
        { name: 'Per day', type: 'line', timeInterval: 'day', onReport: true, chartDatasetConfigs: [{ dataset_id: dataset['id'], xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' }] },
        { name: 'By country', type: 'bar', onReport: true, chartDatasetConfigs: [{ dataset_id: dataset['id'], xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' }] },
      ].map((chart) => must('POST', `/project/${project['id']}/chart/quick-create`, chart)),
    );
    await must('POST', `/project/${project['id']}/share/policy`);
    const share = await must('POST', `/project/${project['id']}/share/token`, {});
    const shareUrl = new URL(share['url'] as string);
    const brewName = shareUrl.pathname.split('/').pop()!;
    const shareToken = shareUrl.searchParams.get('token')!;

    const pid = server.pid!;
    let counter = 0;
    const pick = (): Promise<{ status: number }> => {
      counter += 1;
      const chart = charts[counter % charts.length]!;
      switch (counter % 10) {
        case 0:
        case 1:
          return call('GET', `/project/${project['id']}`);
        case 2:
          return call('GET', '/team');
        case 3:
          return call('PUT', `/project/${project['id']}`, { description: `soak ${counter}` });
        case 4:
        case 5:
          return call('POST', `/project/${project['id']}/chart/${chart['id']}/query?getCache=true`, {});
        case 6:
          return call('POST', `/project/${project['id']}/chart/${chart['id']}/query?getCache=true`, { variables: { min: (counter % 2000) / 20 } });
        default:
          return call('GET', `/project/dashboard/${brewName}?token=${shareToken}`, undefined, false);
      }
    };

    const start = rssMb(pid);
    type Sample = { minute: number; endMb: number; lowMb: number; highMb: number; heapUsedMb?: number; heapTotalMb?: number };
    const samples: Sample[] = [{ minute: 0, endMb: start, lowMb: start, highMb: start }];
    // The V8 heap beside the RSS (the server's /metrics): tells the garbage collector's sawtooth from a leak.
    const heapInto = (sample: Sample): void => {
      void call('GET', '/metrics', undefined, false)
        .then((res) => {
          const text = String(res.text);
          const metric = (name: string) => Number(new RegExp(`^plotline_nodejs_heap_size_${name}_bytes (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
          sample.heapUsedMb = Math.round(metric('used') / 104857.6) / 10;
          sample.heapTotalMb = Math.round(metric('total') / 104857.6) / 10;
        })
        .catch(() => undefined);
    };
    heapInto(samples[0]!);
    let window = { low: Infinity, high: 0 };
    const sampler = setInterval(() => {
      const rss = rssMb(pid);
      window = { low: Math.min(window.low, rss), high: Math.max(window.high, rss) };
    }, 1000);
    const closeMinute = () => {
      const end = rssMb(pid);
      const sample: Sample = { minute: samples.length, endMb: end, lowMb: Math.min(window.low, end), highMb: Math.max(window.high, end) };
      samples.push(sample);
      heapInto(sample);
      window = { low: Infinity, high: 0 };
    };
    const errors: Record<string, number> = {};
    let skipped = 0;
    let sent = 0;
    let inFlight = 0;
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    let nextSample = started + 60_000;
    const interval = 1000 / RATE;
    let next = performance.now();
    while (Date.now() < end) {
      const now = performance.now();
      if (now < next) await new Promise((resolve) => setTimeout(resolve, next - now));
      next += interval;
      if (inFlight >= MAX_IN_FLIGHT) {
        // The server is behind: this tick is skipped (reported), not queued without bound.
        skipped += 1;
        continue;
      }
      inFlight += 1;
      sent += 1;
      pick()
        .then((res) => {
          if (res.status !== 200) errors[String(res.status)] = (errors[String(res.status)] ?? 0) + 1;
        })
        .catch((error: unknown) => {
          const key = (error as { code?: string }).code ?? 'network';
          errors[key] = (errors[key] ?? 0) + 1;
        })
        .finally(() => (inFlight -= 1));
      if (Date.now() >= nextSample) {
        closeMinute();
        nextSample += 60_000;
      }
    }
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    if (samples.length <= MINUTES) closeMinute();
    clearInterval(sampler);

    const last = samples.slice(-3).map((s) => s.lowMb);
    const spread = last.length > 0 ? (Math.max(...last) - Math.min(...last)) / Math.min(...last) : 0;
    process.stdout.write(
      `${JSON.stringify({
        bench: 'soak',
        minutes: MINUTES,
        targetRate: RATE,
        requests: sent,
        achievedRate: Math.round((sent / ((Date.now() - started) / 1000)) * 10) / 10,
        errorCount: Object.values(errors).reduce((a, b) => a + b, 0),
        errors,
        skippedTicks: skipped,
        rssMb: samples,
        lastThreeMinutesSpreadPct: Math.round(spread * 1000) / 10,
        // From the first minute's low (warm) to the last one's: a leak shows as a steady rise.
        lowTrendPct: samples.length > 2 ? Math.round(((samples[samples.length - 1]!.lowMb - samples[1]!.lowMb) / samples[1]!.lowMb) * 1000) / 10 : null,
        flat: MINUTES >= 3 ? spread <= 0.1 : null,
      })}\n`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

await main();
