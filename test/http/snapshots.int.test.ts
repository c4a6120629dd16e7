import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ImageTokens } from '../../src/modules/dashboards/image-tokens.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { postgresConnection, teamWithEveryRole, type RoleTeam } from '../helpers/fixtures.js';
import { createTempDatabase } from '../helpers/postgres-server.js';

/** Pictures over HTTP on both stores, from a real Postgres source: rights, formats, options, signed links, metrics. */
describe.each(['sqlite', 'postgres'] as StoreKind[])('pictures (%s store)', (store) => {
  let t: TestApp;
  let team: RoleTeam;
  let source: { url: string; drop(): Promise<void> };
  let bar: number;
  let neverRun: number;
  let otherProject: number;
  let brewName: string;
  const BLUE = [0x4e, 0x79, 0xa7];

  const as = (role: keyof RoleTeam['people']) => team.people[role].token;

  beforeAll(async () => {
    source = await createTempDatabase(inject('postgresUrl'), `
      create table deliveries (id int primary key, city text, country text, late boolean, created_at timestamptz);
      insert into deliveries select i, (array['Lyon','Paris','Berlin'])[1 + i % 3], (array['FR','FR','DE'])[1 + i % 3], i % 4 = 0, timestamptz '2026-11-01' + (i || ' hours')::interval from generate_series(1, 60) i;
    `);
    t = await buildTestApp({ store });
    team = await teamWithEveryRole(t);
    const owner = as('teamOwner');
    const url = new URL(source.url);
    const conn = (
      await t.request({
        method: 'POST',
        url: `/team/${team.teamId}/connections`,
        token: owner,
        payload: postgresConnection('deliveries', url),
      })
    ).json();
    const ds = await t.request({
      method: 'POST',
      url: `/team/${team.teamId}/datasets/quick-create`,
      token: owner,
      payload: { name: 'Deliveries', project_ids: [team.projectId], dataRequests: [{ connection_id: conn.id, query: 'select * from deliveries' }] },
    });
    expect(ds.statusCode, ds.body).toBe(200);
    const chart = async (payload: Record<string, unknown>, config: Record<string, unknown>) => {
      const res = await t.request({ method: 'POST', url: `/project/${team.projectId}/chart/quick-create`, token: owner, payload: { ...payload, chartDatasetConfigs: [{ dataset_id: ds.json().id, ...config }] } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    bar = await chart({ name: 'Deliveries by city', type: 'bar', layout: { lg: [0, 0, 6, 3] } }, { xAxis: 'root[].city', yAxisOperation: 'count', legend: 'Deliveries' });
    const run = await t.request({ method: 'POST', url: `/project/${team.projectId}/chart/${bar}/query`, token: owner });
    expect(run.statusCode, run.body).toBe(200);
    neverRun = await chart({ name: 'Late deliveries', type: 'kpi', layout: { lg: [6, 0, 3, 2] } }, { xAxis: 'root[].id', yAxisOperation: 'count', legend: 'Late', conditions: [{ field: 'root[].late', operator: 'is', value: 'true' }] });
    const project = (await t.request({ method: 'POST', url: '/project', token: owner, payload: { name: 'Elsewhere', team_id: team.teamId } })).json();
    otherProject = project.id;
    brewName = (await t.request({ method: 'GET', url: `/project/${team.projectId}`, token: owner })).json().brewName;
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const png = (body: Buffer) => PNG.sync.read(body);
  const blue = (image: PNG) => {
    let n = 0;
    for (let i = 0; i < image.data.length; i += 4) if (Math.abs(image.data[i]! - BLUE[0]!) < 6 && Math.abs(image.data[i + 1]! - BLUE[1]!) < 6 && Math.abs(image.data[i + 2]! - BLUE[2]!) < 6) n += 1;
    return n;
  };

  it('a chart picture: PNG of the asked size with the bars in the series colour; dark theme dark; SVG with the labels', async () => {
    const res = await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${bar}/image?format=png&width=640&height=360`, token: as('projectViewer') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-plotline-data-updated-at']).toMatch(/^\d{4}-/);
    const image = png(res.rawPayload);
    expect([image.width, image.height]).toEqual([640, 360]);
    expect(blue(image)).toBeGreaterThan(2000);

    const dark = png((await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${bar}/image?theme=dark`, token: as('projectViewer') })).rawPayload);
    expect([dark.width, dark.height]).toEqual([800, 450]);
    const i = (dark.width * 200 + 5) * 4;
    expect(0.2126 * dark.data[i]! + 0.7152 * dark.data[i + 1]! + 0.0722 * dark.data[i + 2]!).toBeLessThan(60);

    const svg = await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${bar}/image?format=svg`, token: as('projectViewer') });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    for (const label of ['Lyon', 'Paris', 'Berlin']) expect(svg.body).toContain(`>${label}</text>`);
    expect(svg.body.trimEnd().endsWith('</svg>')).toBe(true);
  });

  it('a chart never computed is drawn from data computed for the picture, and nothing is saved', async () => {
    const res = await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${neverRun}/image`, token: as('teamOwner') });
    expect(res.statusCode, res.body).toBe(200);
    const saved = (await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${neverRun}`, token: as('teamOwner') })).json();
    expect(saved.chartData).toBeNull();
  });

  it('rights: every member who may read the dashboard; outsiders, other projects and unknown ids 404; no token 401', async () => {
    for (const role of ['teamOwner', 'teamAdmin', 'projectAdmin', 'projectEditor', 'projectViewer'] as const) {
      const chart = await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${bar}/image`, token: as(role) });
      expect(chart.statusCode, role).toBe(200);
      const dashboard = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as(role), payload: {} });
      expect(dashboard.statusCode, role).toBe(200);
    }
    expect((await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${bar}/image`, token: as('stranger') })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('stranger'), payload: {} })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/project/${otherProject}/chart/${bar}/image`, token: as('teamOwner') })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/999999/image`, token: as('teamOwner') })).statusCode).toBe(404);
    // A project viewer of this project only: another project of the team is refused as its own page refuses it.
    const page = await t.request({ method: 'GET', url: `/project/${otherProject}`, token: as('projectViewer') });
    expect(page.statusCode).toBeGreaterThanOrEqual(403);
    expect((await t.request({ method: 'POST', url: `/project/${otherProject}/snapshot`, token: as('projectViewer'), payload: {} })).statusCode).toBe(page.statusCode);
    expect((await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, payload: {} })).statusCode).toBe(401);
  });

  it('a dashboard snapshot: PNG as wide as the viewport; PDF that parses with its pages; a filter state applied and never saved', async () => {
    const shot = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('projectViewer'), payload: { format: 'png', width: 1000, theme: 'dark' } });
    expect(shot.statusCode, shot.body).toBe(200);
    expect(shot.headers['content-type']).toBe('image/png');
    const image = png(shot.rawPayload);
    expect(image.width).toBe(1000);
    // Header, then 3 grid rows of 90 px with 12 between.
    expect(image.height).toBeGreaterThan(3 * 90 + 2 * 12 + 100);
    expect(blue(image)).toBeGreaterThan(1000);

    const pdf = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('teamOwner'), payload: { format: 'pdf', pages: 'single' } });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const doc = await PDFDocument.load(pdf.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(pdf.headers['x-plotline-pages']).toBe('1');
    const screens = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('teamOwner'), payload: { format: 'pdf', pages: 'screens', width: 800 } });
    expect((await PDFDocument.load(screens.rawPayload)).getPageCount()).toBe(Number(screens.headers['x-plotline-pages']));

    const before = (await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${bar}`, token: as('teamOwner') })).json();
    const filtered = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('projectViewer'), payload: { filters: [{ field: 'country', operator: 'is', value: 'DE' }] } });
    expect(filtered.statusCode, filtered.body).toBe(200);
    const plain = png((await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('projectViewer'), payload: {} })).rawPayload);
    const narrowed = png(filtered.rawPayload);
    // The header says which filters were used: one more line than the picture without them; the charts differ.
    expect(narrowed.height).toBe(plain.height + 18);
    expect(blue(narrowed)).not.toBe(blue(plain));
    const after = (await t.request({ method: 'GET', url: `/project/${team.projectId}/chart/${bar}`, token: as('teamOwner') })).json();
    expect(after.chartData).toEqual(before.chartData);
    expect(after.chartDataUpdated).toBe(before.chartDataUpdated);
  });

  it('a filtered dashboard picture: each card says which filters narrow it, in amber when one set does not reach it', async () => {
    // The report page's amber (#fff4e0) behind "Not filtered by …".
    const amber = (image: PNG) => {
      let n = 0;
      for (let i = 0; i < image.data.length; i += 4) if (image.data[i] === 0xff && image.data[i + 1] === 0xf4 && image.data[i + 2] === 0xe0) n += 1;
      return n;
    };
    const snapshot = async (filters: unknown[]) => {
      const res = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('projectViewer'), payload: { filters } });
      expect(res.statusCode, res.body).toBe(200);
      return png(res.rawPayload);
    };
    const reaching = await snapshot([{ field: 'country', operator: 'is', value: 'DE' }]);
    // The charts have no date field: a date filter reaches neither, and both cards say so.
    const missing = await snapshot([{ field: 'country', operator: 'is', value: 'DE' }, { type: 'date', preset: 'last_7_days' }]);
    expect(amber(reaching)).toBe(0);
    expect(amber(missing)).toBeGreaterThan(2 * 200 * 10);
  });

  it("the header and the cards call a saved filter of the dashboard by its label, as the report page does; one without a label, or not saved, by what it filters on", async () => {
    const save = async (configuration: Record<string, unknown>) => {
      const res = await t.request({ method: 'POST', url: `/project/${team.projectId}/dashboard-filter`, token: as('teamOwner'), payload: { configuration } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const country = await save({ type: 'field', field: 'country', operator: 'is', label: 'Delivery country' });
    const period = await save({ type: 'date', preset: 'last_7_days', label: 'Period' });
    const city = await save({ type: 'field', field: 'city', operator: 'is' });
    const state = {
      filters: [
        // The saved filters' own ids (in upper case too: ids are answered in lower case), their values the state's.
        { id: country.toUpperCase(), field: 'country', operator: 'is', value: 'DE' },
        { id: period, type: 'date', preset: 'last_30_days' },
        { id: city, field: 'city', operator: 'isNot', value: 'Lyon' },
        { field: 'late', operator: 'is', value: false },
      ],
      variables: {},
    };
    // The words the picture draws: the view the renderer is given (the pixels of text are not read).
    const view = await t.container.snapshots.dashboardView({ teamId: team.teamId, projectId: team.projectId }, state);
    expect(view.filters).toEqual(['Delivery country is DE', 'Period: last 30 days', 'city is not Lyon', 'late is false']);
    // The charts have no date field: the period reaches neither.
    for (const card of view.charts) expect(card.filters, card.name ?? undefined).toEqual({ by: ['Delivery country', 'city', 'late'], notBy: ['Period'] });
    const picture = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('projectViewer'), payload: state });
    expect(picture.statusCode, picture.body).toBe(200);
  });

  it("takes Chartbrew's body: viewport.width is the width, its styling options are accepted", async () => {
    const res = await t.request({
      method: 'POST',
      url: `/project/${team.projectId}/snapshot`,
      token: as('teamOwner'),
      payload: { viewport: { width: 900, height: 700 }, theme: 'light', removeStyling: false, removeHeader: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('image/png');
    expect(png(res.rawPayload).width).toBe(900);
  });

  it("answers Chartbrew's client, which asks as JSON with its whole schedule, with {snapshot_path} that serves the picture", async () => {
    // The body its schedule dialog sends, and its headers.
    const payload = {
      timezone: 'Europe/Paris',
      frequency: 'weekly',
      dayOfWeek: 'monday',
      frequencyNumber: undefined,
      time: { hour: 9, minute: 0 },
      mediums: { email: { enabled: true } },
      viewport: { width: 1024, height: 1080 },
      theme: 'dark',
    };
    const res = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('projectViewer'), payload, headers: { accept: 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json();
    expect(body.snapshot_path).toMatch(/^image\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.url).toBe(`${t.config.baseUrl}/${body.snapshot_path}`);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    // `<API host>/<snapshot_path>`, with no token, as the client shows it: the picture as asked.
    const picture = await t.request({ method: 'GET', url: `/${body.snapshot_path}?v=${Date.now()}` });
    expect(picture.statusCode, picture.body).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    const image = png(picture.rawPayload);
    expect(image.width).toBe(1024);
    const [r, g, b] = image.data;
    expect(r! + g! + b!, 'dark theme background').toBeLessThan(200);
    expect(blue(image), 'the bars').toBeGreaterThan(200);

    // A filter state cannot travel in a link: said, not dropped.
    const filtered = await t.request({
      method: 'POST',
      url: `/project/${team.projectId}/snapshot`,
      token: as('teamOwner'),
      payload: { filters: [{ field: 'root[].country', operator: 'is', value: 'DE' }] },
      headers: { accept: 'application/json' },
    });
    expect(filtered.statusCode).toBe(400);
    expect(filtered.json().error).toContain('body.filters');
    // Any other Accept gets the bytes.
    for (const accept of ['*/*', 'image/png', 'application/json, image/png']) {
      const bytes = await t.request({ method: 'POST', url: `/project/${team.projectId}/snapshot`, token: as('teamOwner'), payload: {}, headers: { accept } });
      expect(bytes.headers['content-type'], accept).toBe('image/png');
    }
    // Outsiders get no link.
    expect((await t.request({ method: 'POST', url: `/project/${otherProject}/snapshot`, token: as('projectViewer'), payload: {}, headers: { accept: 'application/json' } })).statusCode).toBe(403);
  });

  it('bad options are 400s naming the field', async () => {
    const cases: [string, string, Record<string, unknown> | undefined, string][] = [
      ['GET', `/project/${team.projectId}/chart/${bar}/image?format=gif`, undefined, 'format'],
      ['GET', `/project/${team.projectId}/chart/${bar}/image?width=10`, undefined, 'width'],
      ['GET', `/project/${team.projectId}/chart/${bar}/image?height=99999`, undefined, 'height'],
      ['GET', `/project/${team.projectId}/chart/${bar}/image?theme=blue`, undefined, 'theme'],
      ['POST', `/project/${team.projectId}/snapshot`, { format: 'svg' }, 'format'],
      ['POST', `/project/${team.projectId}/snapshot`, { width: 'wide' }, 'width'],
      ['POST', `/project/${team.projectId}/snapshot`, { pages: 'all' }, 'pages'],
      ['POST', `/project/${team.projectId}/snapshot`, { viewport: { width: 5 } }, 'viewport.width'],
      ['POST', `/project/${team.projectId}/snapshot`, { colour: 'red' }, 'colour'],
      ['POST', `/project/${team.projectId}/snapshot`, { filters: [{ field: 'root[].country', operator: 'around', value: 'DE' }] }, 'filters'],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await t.request({ method: method as 'GET', url, token: as('teamOwner'), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.body, url).toContain(field);
    }
  });

  it('a signed link serves the picture without a token until it expires; share and image tokens are never taken for each other', async () => {
    const link = t.container.snapshots.signImageLink({ teamId: team.teamId, projectId: team.projectId, chartId: bar }, { format: 'png', theme: 'dark', expiresInSeconds: 600 });
    expect(link.startsWith(`${t.config.baseUrl}/image/`)).toBe(true);
    const path = new URL(link).pathname;
    const res = await t.request({ method: 'GET', url: path });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(png(res.rawPayload).width).toBe(800);

    const dashboardLink = t.container.snapshots.signImageLink({ teamId: team.teamId, projectId: team.projectId }, { format: 'pdf' });
    const pdf = await t.request({ method: 'GET', url: new URL(dashboardLink).pathname });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBeGreaterThanOrEqual(1);

    // Expired: issued with the same secret, its exp in the past.
    const tokens = new ImageTokens(t.config.shareSecret);
    const now = Math.floor(Date.now() / 1000);
    const expired = tokens.issue({ teamId: team.teamId, projectId: team.projectId, chartId: bar, format: 'png', theme: 'light', expiresAt: now - 10 }, now - 700);
    const gone = await t.request({ method: 'GET', url: `/image/${expired}` });
    expect(gone.statusCode).toBe(401);
    expect(gone.json().code).toBe('IMAGE_LINK_EXPIRED');
    // Tampered, and signed with another secret.
    const [h, p, s] = path.split('/').at(-1)!.split('.');
    expect((await t.request({ method: 'GET', url: `/image/${h}.${p}.${s!.slice(0, -2)}xx` })).json().code).toBe('IMAGE_LINK_INVALID');
    const foreign = new ImageTokens(Buffer.alloc(32, 7)).issue({ teamId: team.teamId, projectId: team.projectId, format: 'png', theme: 'light', expiresAt: now + 600 });
    expect((await t.request({ method: 'GET', url: `/image/${foreign}` })).statusCode).toBe(401);
    // A link naming a chart of another dashboard draws nothing.
    const wrong = t.container.snapshots.signImageLink({ teamId: team.teamId, projectId: otherProject, chartId: bar }, { format: 'png' });
    expect((await t.request({ method: 'GET', url: new URL(wrong).pathname })).statusCode).toBe(404);

    // A share token of this very dashboard is no image link…
    await t.request({ method: 'POST', url: `/project/${team.projectId}/share/policy`, token: as('teamOwner') });
    const share = await t.request({ method: 'POST', url: `/project/${team.projectId}/share/token`, token: as('teamOwner'), payload: {} });
    expect(share.statusCode, share.body).toBe(200);
    const shareToken = new URL(share.json().url).searchParams.get('token')!;
    const asImage = await t.request({ method: 'GET', url: `/image/${shareToken}` });
    expect(asImage.statusCode).toBe(401);
    expect(asImage.json().code).toBe('IMAGE_LINK_INVALID');
    // …and an image token is no share token.
    const imageToken = new URL(dashboardLink).pathname.split('/').at(-1)!;
    const asShare = await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${imageToken}` });
    expect(asShare.statusCode).toBe(401);
    expect(asShare.json().code).toBe('SHARE_TOKEN_INVALID');
    expect((await t.request({ method: 'GET', url: `/project/dashboard/${brewName}?token=${shareToken}` })).statusCode).toBe(200);
  });

  it('/metrics has the render time and bytes by kind and format', async () => {
    const metrics = (await t.request({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/plotline_picture_render_seconds_count\{kind="chart",format="png"\} [1-9]/);
    expect(metrics).toMatch(/plotline_picture_render_seconds_count\{kind="dashboard",format="pdf"\} [1-9]/);
    expect(metrics).toMatch(/plotline_picture_bytes_total\{kind="chart",format="svg"\} [1-9]/);
  });
});
