/**
 * The benchmark orders (see ../shared/bench/orders.sql) generated in memory, row for row the
 * same as the SQL table: 1,000,000 orders over 2025, one every 31.536 s from 2025-01-01T00:00Z,
 * amounts and labels derived from md5(row number). In-memory and SQL figures therefore describe
 * the same data; the known sum of all amounts is 500785469.60.
 */
import { createHash } from 'node:crypto';

export interface OrderRow {
  id: number;
  created_at: Date;
  amount: number;
  status: string;
  country: string;
}

export const ORDERS_TOTAL_AMOUNT = 500_785_469.6;

const STATUSES = ['paid', 'pending', 'refunded', 'failed'] as const;
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'IN', 'BR', 'JP', 'CA', 'AU', 'ES'] as const;
const START = Date.UTC(2025, 0, 1);
const STEP_MS = 31_536;

export function generateOrders(count = 1_000_000): OrderRow[] {
  const rows: OrderRow[] = new Array(count);
  for (let g = 1; g <= count; g += 1) {
    const m = createHash('md5').update(String(g)).digest('hex');
    const h1 = parseInt(m.slice(0, 8), 16);
    const h2 = parseInt(m.slice(8, 16), 16);
    const h3 = parseInt(m.slice(16, 24), 16);
    rows[g - 1] = {
      id: g,
      created_at: new Date(START + (g - 1) * STEP_MS),
      amount: (100 + (h1 % 99_901)) / 100,
      status: STATUSES[h2 % 4]!,
      country: COUNTRIES[h3 % 10]!,
    };
  }
  return rows;
}
