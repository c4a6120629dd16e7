import pg from 'pg';

/**
 * Seeds a dashboard that share links can show, through the public API only: a Postgres table of
 * orders, a connection and a dataset whose query has a `{{status}}` variable (default 'paid'), and
 * a dashboard with one chart of each kind, each run once so it has saved chartData.
 * Used by the sharing HTTP tests, the browser tests and the share benchmark.
 */
export interface Reply {
  statusCode: number;
  body: string;
  json(): any;
}

export type Requester = (options: { method: string; url: string; token?: string; payload?: unknown; headers?: Record<string, string> }) => Promise<Reply>;

/** A requester over a listening server (browser tests, benchmark). */
export function fetchRequester(baseUrl: string): Requester {
  return async ({ method, url, token, payload, headers }) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
    });
    const body = await response.text();
    return { statusCode: response.status, body, json: () => JSON.parse(body) };
  };
}

/** Text that must never reach a public response (scanned for by the tests). */
export const SECRETS = {
  connectionPassword: 'conn-Pa55word-never-shown',
  dashboardPassword: 'dash-password-never-shown',
  conditionValue: 'condition-value-never-shown',
  queryText: 'from orders where status = {{status}}',
};

const ORDERS_SQL = `
  create table orders (id int primary key, country text, status text, amount numeric(10,2), created_at timestamptz);
  insert into orders
    select i,
           (array['FR','DE','US','IT'])[1 + i % 4],
           case when i % 5 = 0 then 'refunded' else 'paid' end,
           ((i * 37) % 90 + 10)::numeric(10,2),
           timestamptz '2025-01-01T09:00:00Z' + ((i * 7) % 60) * interval '1 day' + (i % 8) * interval '1 hour'
    from generate_series(1, 120) as i;
`;

export interface SeededDashboard {
  ownerToken: string;
  /** The owner's email (password `correct horse battery`), for a browser session. */
  ownerEmail: string;
  teamId: number;
  projectId: number;
  brewName: string;
  datasetId: number;
  charts: Record<'line' | 'bar' | 'pie' | 'table' | 'kpi' | 'markdown' | 'matrix' | 'doughnut', number>;
}

function ok(reply: Reply, what: string): any {
  if (reply.statusCode !== 200) throw new Error(`${what} failed: ${reply.statusCode} ${reply.body}`);
  return reply.json();
}

export async function createOrdersTable(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(ORDERS_SQL);
  } finally {
    await client.end();
  }
}

export async function seedDashboard(api: Requester, databaseUrl: string, name = 'Sales overview'): Promise<SeededDashboard> {
  const email = `owner-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const user = ok(await api({ method: 'POST', url: '/user', payload: { name: 'Owner', email, password: 'correct horse battery' } }), 'signup');
  const token: string = user.token;
  const teamId: number = ok(await api({ method: 'GET', url: '/team', token }), 'teams')[0].id;

  const url = new URL(databaseUrl);
  const connection = ok(
    await api({
      method: 'POST',
      url: `/team/${teamId}/connections`,
      token,
      payload: {
        name: 'shop',
        type: 'postgres',
        host: url.hostname,
        port: url.port || '5432',
        dbName: url.pathname.slice(1),
        username: decodeURIComponent(url.username),
        // The test server trusts local connections, so this password only has to stay secret.
        password: decodeURIComponent(url.password) || SECRETS.connectionPassword,
      },
    }),
    'connection',
  );
  const project = ok(
    await api({
      method: 'POST',
      url: '/project',
      token,
      payload: {
        name,
        team_id: teamId,
        dashboardTitle: name,
        description: 'Orders, revenue and customers, refreshed every hour.',
        backgroundColor: '#103751',
        titleColor: '#ffffff',
        timezone: 'UTC',
      },
    }),
    'project',
  );
  const dataset = ok(
    await api({
      method: 'POST',
      url: `/team/${teamId}/datasets/quick-create`,
      token,
      payload: {
        name: 'Orders',
        project_ids: [project.id],
        dataRequests: [
          { connection_id: connection.id, query: `select id, country, status, amount, created_at ${SECRETS.queryText} order by id`, variableBindings: [{ name: 'status', default_value: 'paid' }] },
        ],
      },
    }),
    'dataset',
  );

  const day = { xAxis: 'root[].created_at', dateField: 'root[].created_at' };
  const definitions: [keyof SeededDashboard['charts'], Record<string, unknown>, Record<string, unknown>[]][] = [
    ['kpi', { name: 'Orders', type: 'kpi', layout: { lg: [0, 0, 3, 2] } }, [{ yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders' }]],
    ['doughnut', { name: 'Orders by status', type: 'doughnut', layout: { lg: [3, 0, 3, 2] } }, [{ xAxis: 'root[].status', yAxisOperation: 'count', legend: 'Status' }]],
    [
      'line',
      { name: 'Orders per day', type: 'line', timeInterval: 'day', includeZeros: true, showGrowth: true, layout: { lg: [6, 0, 6, 3] } },
      [{ ...day, yAxis: 'root[].id', yAxisOperation: 'count', legend: 'Orders', conditions: [{ field: 'root[].status', operator: 'isNot', value: SECRETS.conditionValue }] }],
    ],
    ['bar', { name: 'Revenue by country', type: 'bar', layout: { lg: [0, 3, 6, 3] } }, [{ xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue', formula: '€{val}' }]],
    ['pie', { name: 'Orders by country', type: 'pie', layout: { lg: [6, 3, 6, 3] } }, [{ xAxis: 'root[].country', yAxisOperation: 'count', legend: 'Orders' }]],
    ['table', { name: 'Latest orders', type: 'table', defaultRowsPerPage: 5, layout: { lg: [0, 6, 12, 4] } }, [{ legend: 'Orders', maxRecords: 40, excludedFields: ['created_at'] }]],
    ['matrix', { name: 'Daily activity', type: 'matrix', layout: { lg: [0, 10, 12, 2] } }, [{ ...day, yAxisOperation: 'count', legend: 'Orders' }]],
    ['markdown', { name: 'Notes', type: 'markdown', content: '## Notes\nRevenue is in **euros**. <img src=x onerror=alert(1)> [Docs](https://example.com)', layout: { lg: [0, 12, 12, 2] } }, []],
  ];
  const charts = {} as SeededDashboard['charts'];
  for (const [key, chart, configs] of definitions) {
    const created = ok(
      await api({
        method: 'POST',
        url: `/project/${project.id}/chart/quick-create`,
        token,
        payload: { ...chart, chartDatasetConfigs: configs.map((config) => ({ dataset_id: dataset.id, ...config })) },
      }),
      `chart ${key}`,
    );
    charts[key] = created.id;
    if (configs.length > 0) ok(await api({ method: 'POST', url: `/project/${project.id}/chart/${created.id}/query`, token }), `query ${key}`);
  }
  return { ownerToken: token, ownerEmail: email, teamId, projectId: project.id, brewName: project.brewName, datasetId: dataset.id, charts };
}
