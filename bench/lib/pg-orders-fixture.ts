import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** The shared benchmark dataset: 1,000,000 orders (see the SQL file's header for the known sums). */
export const ORDERS_SQL = process.env['PLOTLINE_BENCH_ORDERS_SQL'] ?? fileURLToPath(new URL('../data/orders.sql', import.meta.url));
export const ORDERS_SUM = '500785469.60';

export interface OrdersDatabase {
  url: string;
  database: string;
  loaded: boolean;
  loadSeconds: number;
}

/**
 * A scratch database holding the orders tables, created and loaded once, reused afterwards when
 * its row count and checksum match the file's known results.
 */
export async function ensureOrdersDatabase(serverUrl: string, database = 'plotline_bench'): Promise<OrdersDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const present = await client
      .query<{ n: string; total: string }>('select count(*)::text as n, sum(amount)::text as total from orders')
      .then((r) => r.rows[0])
      .catch(() => undefined);
    const small = await client.query('select count(*) from orders_100k').catch(() => undefined);
    if (present?.n === '1000000' && present.total === ORDERS_SUM && small) {
      return { url: url.toString(), database, loaded: false, loadSeconds: 0 };
    }
    if (!existsSync(ORDERS_SQL)) throw new Error(`${ORDERS_SQL} not found; set PLOTLINE_BENCH_ORDERS_SQL`);
    const started = performance.now();
    await client.query(readFileSync(ORDERS_SQL, 'utf8'));
    return { url: url.toString(), database, loaded: true, loadSeconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
  } finally {
    await client.end();
  }
}
