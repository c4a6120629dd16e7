import type { ServerResponse } from 'node:http';
import { googleError, sendJson, type FakeGoogle, type Recorded } from './google-fakes.js';

/*
 * Google Analytics Data API v1beta and Admin API v1beta, as documented:
 * - `POST /v1beta/properties/{id}:runReport` (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport):
 *   dateRanges, dimensions, metrics, orderBys, limit/offset (int64, as strings or numbers);
 *   answers dimensionHeaders, metricHeaders, rows of string values, rowCount, kind.
 * - `GET /v1beta/properties/{id}/metadata` (dimensions and metrics of the property).
 * - `GET /v1beta/accountSummaries` with pageSize/pageToken.
 * Unknown fields answer 400 INVALID_ARGUMENT, properties the credential cannot read 403
 * PERMISSION_DENIED, both in Google's error envelope.
 */

export interface GaFake {
  /** property id -> daily rows {date: 'YYYYMMDD', country, activeUsers, sessions, bounceRate} */
  properties: Map<string, Record<string, string | number>[]>;
  reports: Record<string, any>[];
  /** Property ids the credential may read. */
  readable: Set<string>;
}

const DIMENSIONS = ['date', 'country', 'dateHour'];
const METRICS: Record<string, string> = { activeUsers: 'TYPE_INTEGER', sessions: 'TYPE_INTEGER', bounceRate: 'TYPE_FLOAT' };

function resolveDate(text: string, today: string): string {
  const base = Date.parse(`${today}T00:00:00Z`);
  if (text === 'today') return today;
  if (text === 'yesterday') return new Date(base - 86_400_000).toISOString().slice(0, 10);
  const ago = /^(\d+)daysAgo$/.exec(text);
  if (ago) return new Date(base - Number(ago[1]) * 86_400_000).toISOString().slice(0, 10);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  throw new Error(`Invalid date "${text}"`);
}

export function installGa(google: FakeGoogle, today: string): GaFake {
  const fake: GaFake = { properties: new Map(), reports: [], readable: new Set() };

  const checkScope = (res: ServerResponse, scopes: string[]): boolean => {
    if (scopes.includes('https://www.googleapis.com/auth/analytics.readonly')) return true;
    googleError(res, 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    return false;
  };

  google.handle('/v1beta/accountSummaries', (req: Recorded, res, scopes) => {
    if (!checkScope(res, scopes)) return;
    if (req.method !== 'GET') return googleError(res, 405, 'METHOD_NOT_ALLOWED', 'GET only');
    const all = [...fake.readable].sort().map((id, i) => ({
      name: `accountSummaries/${100 + i}`,
      account: `accounts/${100 + i}`,
      displayName: `Account ${i + 1}`,
      propertySummaries: [{ property: `properties/${id}`, displayName: `Site ${id}`, propertyType: 'PROPERTY_TYPE_ORDINARY', parent: `accounts/${100 + i}` }],
    }));
    // One account per page, to exercise paging.
    const start = Number(req.query.get('pageToken') || 0);
    const page = all.slice(start, start + 1);
    sendJson(res, 200, { accountSummaries: page, ...(start + 1 < all.length ? { nextPageToken: String(start + 1) } : {}) });
  });

  google.handle('/v1beta/properties/', (req: Recorded, res, scopes) => {
    if (!checkScope(res, scopes)) return;
    const match = /^\/v1beta\/properties\/(\d+)(:runReport|\/metadata)$/.exec(req.path);
    if (!match) return googleError(res, 404, 'NOT_FOUND', `Unknown path ${req.path}`);
    const id = match[1]!;
    if (!fake.readable.has(id)) return googleError(res, 403, 'PERMISSION_DENIED', 'User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.');
    if (match[2] === '/metadata') {
      if (req.method !== 'GET') return googleError(res, 405, 'METHOD_NOT_ALLOWED', 'GET only');
      return sendJson(res, 200, {
        name: `properties/${id}/metadata`,
        dimensions: DIMENSIONS.map((apiName) => ({ apiName, uiName: apiName, category: 'Time' })),
        metrics: Object.entries(METRICS).map(([apiName, type]) => ({ apiName, uiName: apiName, type })),
      });
    }
    if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json') return googleError(res, 400, 'INVALID_ARGUMENT', 'POST JSON');
    const body = JSON.parse(req.body) as Record<string, any>;
    fake.reports.push(body);
    const dims = ((body['dimensions'] ?? []) as { name: string }[]).map((d) => d.name);
    const metrics = ((body['metrics'] ?? []) as { name: string }[]).map((m) => m.name);
    for (const d of dims) if (!DIMENSIONS.includes(d)) return googleError(res, 400, 'INVALID_ARGUMENT', `Field ${d} is not a valid dimension. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema`);
    for (const m of metrics) if (!METRICS[m]) return googleError(res, 400, 'INVALID_ARGUMENT', `Field ${m} is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema`);
    const range = (body['dateRanges'] ?? [])[0] as { startDate: string; endDate: string } | undefined;
    if (!range) return googleError(res, 400, 'INVALID_ARGUMENT', 'dateRanges is required');
    let start: string;
    let end: string;
    try {
      start = resolveDate(range.startDate, today);
      end = resolveDate(range.endDate, today);
    } catch (error) {
      return googleError(res, 400, 'INVALID_ARGUMENT', (error as Error).message);
    }
    const source = (fake.properties.get(id) ?? []).filter((r) => {
      const day = `${String(r['date']).slice(0, 4)}-${String(r['date']).slice(4, 6)}-${String(r['date']).slice(6, 8)}`;
      return day >= start && day <= end;
    });
    // Group by the requested dimensions, summing metrics.
    const groups = new Map<string, { dims: string[]; values: number[] }>();
    for (const r of source) {
      const key = dims.map((d) => String(r[d] ?? '(not set)'));
      const k = JSON.stringify(key);
      const group = groups.get(k) ?? { dims: key, values: metrics.map(() => 0) };
      metrics.forEach((m, i) => (group.values[i]! += Number(r[m] ?? 0)));
      groups.set(k, group);
    }
    let rows = [...groups.values()];
    const order = (body['orderBys'] ?? []) as { dimension?: { dimensionName: string }; metric?: { metricName: string }; desc?: boolean }[];
    rows.sort((a, b) => {
      for (const o of order) {
        const c = o.dimension
          ? a.dims[dims.indexOf(o.dimension.dimensionName)]!.localeCompare(b.dims[dims.indexOf(o.dimension.dimensionName)]!)
          : a.values[metrics.indexOf(o.metric!.metricName)]! - b.values[metrics.indexOf(o.metric!.metricName)]!;
        if (c !== 0) return o.desc ? -c : c;
      }
      return 0;
    });
    const rowCount = rows.length;
    const offset = Number(body['offset'] ?? 0);
    const limit = Math.min(Number(body['limit'] ?? 10_000), 250_000);
    rows = rows.slice(offset, offset + limit);
    sendJson(res, 200, {
      dimensionHeaders: dims.map((name) => ({ name })),
      metricHeaders: metrics.map((name) => ({ name, type: METRICS[name] })),
      ...(rows.length > 0
        ? { rows: rows.map((r) => ({ dimensionValues: r.dims.map((value) => ({ value })), metricValues: r.values.map((v) => ({ value: String(Math.round(v * 1000) / 1000) })) })) }
        : {}),
      ...(rowCount > 0 ? { rowCount } : {}),
      metadata: { currencyCode: 'EUR', timeZone: 'Europe/Paris' },
      kind: 'analyticsData#runReport',
    });
  });
  return fake;
}
