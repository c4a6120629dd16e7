import { useEffect, useMemo, useState, type FormEvent } from 'react';
import GridLayout, { WidthProvider, type Layout } from 'react-grid-layout';
import { api, ok } from '../api/client';
import { Link } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, useAction, useAsync } from '../ui';
import { ChartCard } from './ChartCard';
import type { ChartRecord } from './ChartEditor';

const Grid = WidthProvider(GridLayout);

interface Policy {
  id: number;
  share_string: string;
  visibility: string;
  params: { key: string; value: string }[];
  allow_params: boolean;
  expires_at: string | null;
}
interface Schedule {
  frequency?: string;
  frequencyNumber?: number | string;
  time?: { hour?: number; minute?: number };
  timezone?: string;
  dayOfWeek?: string | number;
  daysOfWeek?: (string | number)[];
}
interface Project {
  id: number;
  name: string;
  brewName: string;
  dashboardTitle: string | null;
  backgroundColor: string | null;
  titleColor: string | null;
  timezone: string | null;
  updateSchedule: Schedule | null;
  nextUpdateAt?: string | null;
  lastUpdatedAt?: string | null;
  Charts: ChartRecord[];
  SharePolicies?: Policy[];
}

/** `layout.lg` as [x, y, w, h] (the same shape other clients write); a chart without one goes below. */
function itemOf(chart: ChartRecord, index: number): Layout {
  const lg = (chart.layout as { lg?: number[] } | null)?.lg;
  const [x, y, w, h] = Array.isArray(lg) && lg.length === 4 ? lg : [(index % 2) * 6, 1000 + index, 6, 3];
  return { i: String(chart.id), x: x!, y: y!, w: w!, h: h!, minW: 2, minH: 2 };
}

export function Dashboard({ projectId }: { projectId: number }) {
  const [project, reload] = useAsync(async () => (await ok(api.GET('/project/{id}', { params: { path: { id: projectId } } }))) as unknown as Project, [projectId]);
  return (
    <Load value={project} what="the dashboard" retry={reload}>
      {(p) => <Board project={p} reload={reload} />}
    </Load>
  );
}

const PHONE = '(max-width: 760px)';

/** True on a phone-width screen, where the dashboard is one column in layout order. */
function usePhone(): boolean {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE).matches);
  useEffect(() => {
    const media = window.matchMedia(PHONE);
    const change = () => setPhone(media.matches);
    media.addEventListener('change', change);
    return () => media.removeEventListener('change', change);
  }, []);
  return phone;
}

function Board({ project, reload }: { project: Project; reload: () => void }) {
  const phone = usePhone();
  const [status, setStatus] = useState<string | null>(null);
  const [panel, setPanel] = useState<'settings' | 'share' | null>(null);
  const action = useAction();
  const charts = project.Charts;
  const layout = useMemo(() => charts.map(itemOf), [charts]);

  const saveLayout = async (next: Layout[]) => {
    const changed = next.filter((item) => {
      const before = layout.find((l) => l.i === item.i);
      return !before || before.x !== item.x || before.y !== item.y || before.w !== item.w || before.h !== item.h;
    });
    if (changed.length === 0) return;
    setStatus('Saving the layout…');
    const done = await action.run(async () => {
      for (const item of changed) {
        await ok(api.PUT('/project/{project_id}/chart/{id}', { params: { path: { project_id: project.id, id: Number(item.i) } }, body: { layout: { lg: [item.x, item.y, item.w, item.h] } } as never }));
      }
      return true;
    });
    setStatus(done ? 'Layout saved.' : null);
    if (done) reload();
  };

  const refreshAll = async () => {
    setStatus('Refreshing every chart…');
    const done = await action.run(async () => {
      for (const chart of charts) await ok(api.POST('/project/{project_id}/chart/{id}/query', { params: { path: { project_id: project.id, id: chart.id } }, body: {} }));
      return true;
    });
    setStatus(done ? 'All charts refreshed.' : null);
    reload();
  };

  const remove = async (chart: ChartRecord) => {
    if (!window.confirm(`Delete the chart “${chart.name}”?`)) return;
    if (await action.run(() => ok(api.DELETE('/project/{project_id}/chart/{id}', { params: { path: { project_id: project.id, id: chart.id } } })))) reload();
  };

  const item = (chart: ChartRecord) => (
    <>
      <div className="item-bar">
        {phone ? null : (
          <button type="button" className="drag-handle" aria-label={`Move ${chart.name}`}>
            ⠿
          </button>
        )}
        <Link to={`/dashboards/${project.id}/charts/${chart.id}`}>Edit</Link>
        <a href={`/project/${project.id}/chart/${chart.id}/export?format=csv`} download>
          CSV
        </a>
        <a href={`/project/${project.id}/chart/${chart.id}/export?format=xlsx`} download>
          XLSX
        </a>
        <button type="button" className="link danger" onClick={() => void remove(chart)}>
          Remove
        </button>
      </div>
      <ChartCard chart={chart} />
    </>
  );

  return (
    <section aria-labelledby="dashboard-title">
      <div className="toolbar">
        <h1 id="dashboard-title">{project.dashboardTitle || project.name}</h1>
        <div className="actions">
          <Link to={`/dashboards/${project.id}/charts/new`} className="button primary">
            Add a chart
          </Link>
          <button type="button" onClick={() => void refreshAll()} disabled={action.busy || charts.length === 0}>
            Refresh all
          </button>
          <button type="button" aria-expanded={panel === 'settings'} onClick={() => setPanel(panel === 'settings' ? null : 'settings')}>
            Settings
          </button>
          <button type="button" aria-expanded={panel === 'share'} onClick={() => setPanel(panel === 'share' ? null : 'share')}>
            Share
          </button>
        </div>
      </div>
      {status ? (
        <p className="muted" role="status">
          {status}
        </p>
      ) : null}
      <ErrorBox error={action.error} />
      {panel === 'settings' ? <Settings project={project} onSaved={reload} /> : null}
      {panel === 'share' ? <Share project={project} /> : null}
      {charts.length === 0 ? (
        <Empty>
          <p>No chart on this dashboard yet.</p>
          <Link to={`/dashboards/${project.id}/charts/new`}>Add the first chart</Link>
        </Empty>
      ) : phone ? (
        <div className="stack board">
          {[...charts]
            .sort((a, b) => {
              const la = layout.find((l) => l.i === String(a.id))!;
              const lb = layout.find((l) => l.i === String(b.id))!;
              return la.y - lb.y || la.x - lb.x;
            })
            .map((chart) => (
              <div key={String(chart.id)} className="board-item" data-chart-name={chart.name}>
                {item(chart)}
              </div>
            ))}
        </div>
      ) : (
        <Grid
          className="board"
          layout={layout}
          cols={12}
          rowHeight={90}
          margin={[12, 12]}
          draggableHandle=".drag-handle"
          onDragStop={(next) => void saveLayout(next)}
          onResizeStop={(next) => void saveLayout(next)}
        >
          {charts.map((chart) => (
            <div key={String(chart.id)} className="board-item" data-chart-name={chart.name}>
              {item(chart)}
            </div>
          ))}
        </Grid>
      )}
    </section>
  );
}

const FREQUENCIES: [string, string][] = [
  ['', 'Never (refresh by hand)'],
  ['daily', 'Every day'],
  ['weekly', 'Every week'],
  ['every_x_days', 'Every few days'],
  ['every_x_hours', 'Every few hours'],
  ['every_x_minutes', 'Every few minutes'],
];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const UNITS: Record<string, string> = { every_x_days: 'days', every_x_hours: 'hours', every_x_minutes: 'minutes' };

/** A stored weekday (1 = Monday … 7, or its name) as its name. */
const weekday = (day: string | number | undefined) => (typeof day === 'number' ? WEEKDAYS[day - 1] : day) ?? 'monday';
const two = (n: number) => String(n).padStart(2, '0');

function Settings({ project, onSaved }: { project: Project; onSaved: () => void }) {
  const schedule = project.updateSchedule ?? {};
  const [title, setTitle] = useState(project.dashboardTitle ?? project.name);
  const [background, setBackground] = useState(project.backgroundColor ?? '#f5f6f8');
  const [titleColor, setTitleColor] = useState(project.titleColor ?? '#1d2433');
  const [timezone, setTimezone] = useState(project.timezone ?? 'UTC');
  const [frequency, setFrequency] = useState(schedule.frequency ?? '');
  const [every, setEvery] = useState(String(schedule.frequencyNumber ?? 1));
  const [time, setTime] = useState(`${two(schedule.time?.hour ?? 6)}:${two(schedule.time?.minute ?? 0)}`);
  const [day, setDay] = useState<string>(weekday(schedule.dayOfWeek));
  const [days, setDays] = useState<string[]>(() => (schedule.daysOfWeek ?? []).map((d) => weekday(d)));
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const atTime = frequency === 'daily' || frequency === 'weekly';
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    const updateSchedule =
      frequency === ''
        ? null
        : {
            frequency,
            timezone,
            ...(UNITS[frequency] ? { frequencyNumber: Number(every) } : {}),
            ...(atTime ? { time: { hour, minute } } : {}),
            ...(frequency === 'weekly' ? { dayOfWeek: day } : {}),
            ...(frequency === 'daily' && days.length > 0 ? { daysOfWeek: WEEKDAYS.filter((d) => days.includes(d)) } : {}),
          };
    const done = await action.run(() =>
      ok(api.PUT('/project/{id}', { params: { path: { id: project.id } }, body: { dashboardTitle: title, backgroundColor: background, titleColor, timezone, updateSchedule } as never })),
    );
    if (done) {
      setSaved(true);
      onSaved();
    }
  };
  return (
    <form className="panel settings" onSubmit={save} aria-label="Dashboard settings">
      <h2>Settings</h2>
      <Field label="Title">
        <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field label="Background colour">
        <input type="color" value={background} onChange={(e) => setBackground(e.target.value)} />
      </Field>
      <Field label="Title colour">
        <input type="color" value={titleColor} onChange={(e) => setTitleColor(e.target.value)} />
      </Field>
      <Field label="Timezone" hint="IANA name, e.g. Europe/Paris; the schedule runs on this clock">
        <input value={timezone} onChange={(e) => setTimezone(e.target.value)} />
      </Field>
      <fieldset className="schedule">
        <legend>Update schedule</legend>
        <Field label="Refresh">
          <select value={frequency} onChange={(e) => setFrequency(e.target.value)}>
            {FREQUENCIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        {UNITS[frequency] ? (
          <Field label={`Every how many ${UNITS[frequency]}`}>
            <input type="number" min={1} required value={every} onChange={(e) => setEvery(e.target.value)} />
          </Field>
        ) : null}
        {frequency === 'weekly' ? (
          <Field label="On">
            <select value={day} onChange={(e) => setDay(e.target.value)}>
              {WEEKDAYS.map((d) => (
                <option key={d} value={d}>
                  {d[0]!.toUpperCase() + d.slice(1)}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {frequency === 'daily' ? (
          <fieldset className="days">
            <legend>Only on (none: every day)</legend>
            {WEEKDAYS.map((d) => (
              <label className="check" key={d}>
                <input type="checkbox" checked={days.includes(d)} onChange={(e) => setDays(e.target.checked ? [...days, d] : days.filter((x) => x !== d))} />{' '}
                {d[0]!.toUpperCase() + d.slice(1)}
              </label>
            ))}
          </fieldset>
        ) : null}
        {atTime ? (
          <Field label="At">
            <input type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
          </Field>
        ) : null}
        <p className="muted" data-testid="next-update">
          {project.updateSchedule?.frequency
            ? project.nextUpdateAt
              ? `Next scheduled refresh: ${new Date(project.nextUpdateAt).toLocaleString()}`
              : 'This schedule never comes due: check its settings.'
            : 'No schedule: charts refresh when you press Refresh all.'}
          {project.lastUpdatedAt ? ` Last one: ${new Date(project.lastUpdatedAt).toLocaleString()}.` : ''}
        </p>
      </fieldset>
      <ErrorBox error={action.error} />
      {saved ? (
        <p className="success" role="status">
          Settings saved.
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={action.busy}>
        Save settings
      </button>
    </form>
  );
}

function Share({ project }: { project: Project }) {
  const path = { id: project.id };
  const [policies, reload] = useAsync(async () => (await ok(api.GET('/project/{id}/share/policy', { params: { path } }))) as unknown as Policy[], [project.id]);
  const [links, setLinks] = useState<Record<number, string>>({});
  const action = useAction();
  const create = () => action.run(async () => (await ok(api.POST('/project/{id}/share/policy', { params: { path } })), reload()));
  const link = async (policy: Policy) => {
    const answer = await action.run(() => ok(api.POST('/project/{id}/share/token', { params: { path }, body: { sharePolicyId: policy.id } })));
    if (answer) setLinks({ ...links, [policy.id]: (answer as { url: string }).url });
  };
  const revoke = async (policy: Policy) => {
    if (await action.run(() => ok(api.POST('/project/{id}/share/policy/{policy_id}/revoke', { params: { path: { id: project.id, policy_id: policy.id } } })))) {
      const { [policy.id]: _gone, ...rest } = links;
      setLinks(rest);
      reload();
    }
  };
  return (
    <div className="panel share" aria-labelledby="share-title">
      <h2 id="share-title">Share</h2>
      <p className="hint">A link works until it expires or you revoke it. Locked params always apply; with “viewers may override”, URL parameters replace them.</p>
      <ErrorBox error={action.error} />
      <Load value={policies} what="share policies" retry={reload}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No share policy yet.</Empty>
          ) : (
            <ul className="rows">
              {list.map((policy) => (
                <li key={policy.id} className="policy">
                  <PolicyEditor projectId={project.id} policy={policy} onSaved={reload} />
                  <div className="actions">
                    <button type="button" className="primary" onClick={() => void link(policy)} disabled={action.busy}>
                      Create link
                    </button>
                    <button type="button" className="danger" onClick={() => void revoke(policy)} disabled={action.busy}>
                      Revoke links
                    </button>
                  </div>
                  {links[policy.id] ? (
                    <div className="share-link">
                      <label className="field">
                        <span className="field-label">Share link</span>
                        <input readOnly value={links[policy.id]} onFocus={(e) => e.target.select()} />
                      </label>
                      <button type="button" onClick={() => void navigator.clipboard?.writeText(links[policy.id]!)}>
                        Copy
                      </button>
                      <a className="button" href={links[policy.id]} target="_blank" rel="noreferrer noopener">
                        Open
                      </a>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <button type="button" onClick={() => void create()} disabled={action.busy}>
        New share policy
      </button>
    </div>
  );
}

function PolicyEditor({ projectId, policy, onSaved }: { projectId: number; policy: Policy; onSaved: () => void }) {
  const [params, setParams] = useState(policy.params);
  const [allow, setAllow] = useState(policy.allow_params);
  const [expires, setExpires] = useState(policy.expires_at ? policy.expires_at.slice(0, 10) : '');
  const action = useAction();
  useEffect(() => setParams(policy.params), [policy]);
  const save = () =>
    action.run(async () => {
      await ok(
        api.PUT('/project/{id}/share/policy/{policy_id}', {
          params: { path: { id: projectId, policy_id: policy.id } },
          body: { params: params.filter((p) => p.key !== ''), allow_params: allow, expires_at: expires === '' ? null : new Date(expires + 'T23:59:59Z').toISOString() },
        }),
      );
      onSaved();
    });
  return (
    <div className="policy-editor">
      <p className="muted">Policy {policy.share_string.slice(0, 8)}… ({policy.visibility})</p>
      {params.map((p, i) => (
        <div className="condition" key={i}>
          <input aria-label="Param name" placeholder="variable" value={p.key} onChange={(e) => setParams(params.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))} />
          <input aria-label="Param value" placeholder="value" value={p.value} onChange={(e) => setParams(params.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
          <button type="button" className="link" onClick={() => setParams(params.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="link" onClick={() => setParams([...params, { key: '', value: '' }])}>
        Add a param
      </button>
      <label className="check">
        <input type="checkbox" checked={allow} onChange={(e) => setAllow(e.target.checked)} /> Viewers may override params in the URL
      </label>
      <Field label="Expires on">
        <input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
      </Field>
      <ErrorBox error={action.error} />
      <button type="button" onClick={() => void save()} disabled={action.busy}>
        Save policy
      </button>
    </div>
  );
}
