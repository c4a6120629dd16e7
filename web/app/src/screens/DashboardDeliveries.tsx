import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { keys } from '../api/queries';
import type { components } from '../api/schema';
import { FREQUENCY_BOUNDS, isElapsedFrequency } from '../../../../src/modules/automation/deliveries-frequencies';
import { Empty, ErrorBox, Field, Load, mutationsState, Success } from '../ui';
import './Deliveries.css';

type Subscription = components['schemas']['Subscription'];
type SubscriptionRun = components['schemas']['SubscriptionRun'];
type CreateBody = components['schemas']['CreateSubscription'];
type UpdateBody = components['schemas']['UpdateSubscription'];

/** A dashboard's subscriptions, or one chart's when `chartId` is given (the same routes under `…/chart/{id}`). */
export interface DeliveryScope {
  projectId: number;
  chartId?: number | undefined;
}

const deliveriesKey = ({ projectId, chartId }: DeliveryScope) => ['project', projectId, 'subscriptions', chartId ?? null] as const;
const chartPath = (scope: DeliveryScope) => ({ project_id: scope.projectId, id: scope.chartId! });

/** The subscription routes of a scope, each typed from the OpenAPI schema. */
const routes = (scope: DeliveryScope) =>
  scope.chartId === undefined
    ? {
        list: () => ok(api.GET('/project/{id}/subscriptions', { params: { path: { id: scope.projectId } } })),
        create: (body: CreateBody) => ok(api.POST('/project/{id}/subscriptions', { params: { path: { id: scope.projectId } }, body })),
        update: (sid: number, body: UpdateBody) => ok(api.PUT('/project/{id}/subscriptions/{sid}', { params: { path: { id: scope.projectId, sid } }, body })),
        remove: (sid: number) => ok(api.DELETE('/project/{id}/subscriptions/{sid}', { params: { path: { id: scope.projectId, sid } } })),
        send: (sid: number) => ok(api.POST('/project/{id}/subscriptions/{sid}/send', { params: { path: { id: scope.projectId, sid } } })),
        runs: (sid: number) => ok(api.GET('/project/{id}/subscriptions/{sid}/runs', { params: { path: { id: scope.projectId, sid }, query: { limit: 10 } } })),
      }
    : {
        list: () => ok(api.GET('/project/{project_id}/chart/{id}/subscriptions', { params: { path: chartPath(scope) } })),
        create: (body: CreateBody) => ok(api.POST('/project/{project_id}/chart/{id}/subscriptions', { params: { path: chartPath(scope) }, body })),
        update: (sid: number, body: UpdateBody) => ok(api.PUT('/project/{project_id}/chart/{id}/subscriptions/{sid}', { params: { path: { ...chartPath(scope), sid } }, body })),
        remove: (sid: number) => ok(api.DELETE('/project/{project_id}/chart/{id}/subscriptions/{sid}', { params: { path: { ...chartPath(scope), sid } } })),
        send: (sid: number) => ok(api.POST('/project/{project_id}/chart/{id}/subscriptions/{sid}/send', { params: { path: { ...chartPath(scope), sid } } })),
        runs: (sid: number) =>
          ok(api.GET('/project/{project_id}/chart/{id}/subscriptions/{sid}/runs', { params: { path: { ...chartPath(scope), sid }, query: { limit: 10 } } })),
      };

const subscriptionsQuery = (scope: DeliveryScope) => queryOptions({ queryKey: deliveriesKey(scope), queryFn: () => routes(scope).list() });
const statusQuery = (projectId: number) =>
  queryOptions({ queryKey: ['project', projectId, 'delivery-status'], queryFn: () => ok(api.GET('/project/{id}/delivery-status', { params: { path: { id: projectId } } })) });
const runsQuery = (scope: DeliveryScope, sid: number) => queryOptions({ queryKey: [...deliveriesKey(scope), sid, 'runs'], queryFn: () => routes(scope).runs(sid) });

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const two = (n: number) => String(n).padStart(2, '0');

/** "every 6 hours", "every hour": how often an elapsed-time schedule sends. */
function everyWords(frequency: keyof typeof FREQUENCY_BOUNDS, n: number): string {
  const unit = FREQUENCY_BOUNDS[frequency].unit;
  return n === 1 ? `every ${unit.slice(0, -1)}` : `every ${n} ${unit}`;
}

/** How many a delivery goes to: addresses, Slack webhooks, integrations and its webhook. */
function targetCount(s: Subscription): string {
  const n = s.recipients.length + s.slackWebhooks.length + s.integrations.length + (s.webhook ? 1 : 0);
  return `${n} recipient${n === 1 ? '' : 's'}`;
}

/** The next delivery on the schedule's own clock, as the schedule is written ("Mon 30 Nov, 09:30 Europe/Paris"). */
function nextText(iso: string, timezone: string): string {
  const at = new Date(iso);
  try {
    return `${new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: timezone }).format(at)} ${timezone}`;
  } catch {
    // A zone this browser does not know: the reader's own clock.
    return at.toLocaleString();
  }
}

function describeSchedule(s: Subscription['schedule']): string {
  if (isElapsedFrequency(s.frequency)) {
    const words = everyWords(s.frequency, s.frequencyNumber ?? 1);
    return words[0]!.toUpperCase() + words.slice(1);
  }
  const at = `${two(s.time?.hour ?? 9)}:${two(s.time?.minute ?? 0)} (${s.timezone})`;
  switch (s.frequency) {
    case 'daily':
      return s.daysOfWeek ? `${s.daysOfWeek.map((d) => DAYS[d - 1]!.slice(0, 3)).join(', ')} at ${at}` : `Every day at ${at}`;
    case 'weekdays':
      return `Weekdays at ${at}`;
    case 'weekly':
      return `Every ${DAYS[(s.dayOfWeek ?? 1) - 1]} at ${at}`;
    case 'monthly':
      return `Monthly on day ${s.dayOfMonth ?? 1} at ${at}`;
  }
}

/** The form's frequencies, in words: the elapsed-time ones say how many of what, minutes with their floor. */
const FREQUENCIES: [Subscription['schedule']['frequency'], string][] = [
  ['daily', 'Every day'],
  ['weekdays', 'Weekdays'],
  ['weekly', 'Every week'],
  ['monthly', 'Every month'],
  ['every_x_days', 'Every N days'],
  ['every_x_hours', 'Every N hours'],
  ['every_x_minutes', `Every N minutes (at least ${FREQUENCY_BOUNDS.every_x_minutes.min})`],
];

const lines = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((x) => x.trim())
    .filter((x) => x !== '');

/**
 * The Deliveries panel of a dashboard, or of one of its charts when `chartId` is given (the card
 * menu's *Deliveries*): its subscriptions, a form to make or change one, send now, pause, history.
 */
export function DashboardDeliveries({ projectId, chartId, chartName }: { projectId: number; chartId?: number; chartName?: string }) {
  const client = useQueryClient();
  const scope: DeliveryScope = { projectId, chartId };
  const subscriptions = useQuery(subscriptionsQuery(scope));
  const status = useQuery(statusQuery(projectId));
  const [editing, setEditing] = useState<Subscription | 'new' | null>(null);
  const [history, setHistory] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Both lists: a chart's deliveries are also listed on its dashboard's.
  const reload = () => client.invalidateQueries({ queryKey: ['project', projectId, 'subscriptions'] });
  const toggle = useMutation({
    mutationFn: (s: Subscription) => routes(scope).update(s.id, { active: !s.active }),
    onSuccess: (s) => {
      setDone(s.active ? 'Delivery resumed.' : 'Delivery paused.');
      return reload();
    },
  });
  const send = useMutation({
    mutationFn: (s: Subscription) => routes(scope).send(s.id),
    onSuccess: (run, s) => {
      setDone(
        run.status === 'sent'
          ? 'Sent.'
          : run.status === 'partial'
            ? 'Sent to some recipients; see the history.'
            : run.status === 'interrupted'
              ? 'Interrupted before every recipient had it; see the history.'
              : `Not sent: ${run.error ?? 'see the history'}.`,
      );
      setHistory(s.id);
      // A delivery refreshes the data it sends: the dashboard's cards are read again with the list.
      return client.invalidateQueries({ queryKey: keys.project(projectId) });
    },
  });
  const remove = useMutation({
    mutationFn: (s: Subscription) => routes(scope).remove(s.id),
    onSuccess: () => {
      setDone('Delivery deleted.');
      return reload();
    },
  });
  const { busy, error } = mutationsState(toggle, send, remove);

  return (
    <div className={chartId === undefined ? 'panel deliveries' : 'deliveries'} {...(chartId === undefined ? { 'aria-labelledby': 'deliveries-title' } : {})}>
      {chartId === undefined ? <h2 id="deliveries-title">Deliveries</h2> : null}
      <p className="hint">
        {chartId === undefined
          ? 'Send this dashboard, or one of its charts, on a schedule by email, Slack or webhook.'
          : `Send “${chartName ?? 'this chart'}” alone on a schedule by email, Slack or webhook; the dashboard's Deliveries lists it too.`}{' '}
        Every email has its own unsubscribe link.
      </p>
      <Load query={status} what="delivery status">
        {(s) => (
          <ul className="delivery-status" aria-label="Delivery status">
            <li data-testid="email-status">{s.email ? 'Email: ready' : 'Email: not set up (the server needs PLOTLINE_SMTP_URL)'}</li>
            <li>Slack: incoming webhooks</li>
            <li>{s.allowExternalRecipients ? 'Addresses outside the team are allowed' : 'Email goes to team members only'}</li>
          </ul>
        )}
      </Load>
      <ErrorBox error={error} />
      <Success message={done} />
      <Load query={subscriptions} what="deliveries">
        {(list) =>
          list.length === 0 ? (
            <Empty>No delivery yet.</Empty>
          ) : (
            <ul className="rows">
              {list.map((s) => (
                <li key={s.id} className="subscription">
                  <div>
                    <strong>{s.name ?? `Delivery ${s.id}`}</strong> {s.chart_id !== null ? <span className="muted">(one chart)</span> : null}
                    <p className="muted">
                      {describeSchedule(s.schedule)} · {s.format.toUpperCase()} · {targetCount(s)} · {s.active ? (s.nextAt ? `next ${nextText(s.nextAt, s.schedule.timezone)}` : 'active') : 'paused'}
                    </p>
                  </div>
                  <div className="actions">
                    <button type="button" onClick={() => send.mutate(s)} disabled={busy}>
                      Send now
                    </button>
                    <button type="button" onClick={() => toggle.mutate(s)} disabled={busy}>
                      {s.active ? 'Pause' : 'Resume'}
                    </button>
                    <button type="button" aria-expanded={history === s.id} onClick={() => setHistory(history === s.id ? null : s.id)}>
                      History
                    </button>
                    <button type="button" onClick={() => setEditing(s)} disabled={busy}>
                      Edit
                    </button>
                    <button type="button" className="danger" onClick={() => remove.mutate(s)} disabled={busy}>
                      Delete
                    </button>
                  </div>
                  {history === s.id ? <History scope={scope} subscription={s} /> : null}
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      {editing === null ? (
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          New delivery
        </button>
      ) : (
        <SubscriptionForm
          scope={scope}
          current={editing === 'new' ? null : editing}
          onDone={(message) => {
            setEditing(null);
            setDone(message);
          }}
        />
      )}
    </div>
  );
}

const RUN_STATUS: Record<SubscriptionRun['status'], string> = { running: 'sending…', sent: 'sent', partial: 'partial', failed: 'failed', interrupted: 'interrupted' };

/** Each target's outcome; a run still going says so, an interrupted one (or one that resumed it) says what became of it. */
function describeRun(run: SubscriptionRun): string {
  const targets = run.deliveries
    .map((d) => `${d.medium} ${d.target}: ${d.sentInRun !== undefined ? 'sent before the interruption' : d.ok ? 'sent' : `failed after ${d.attempts} tries (${d.detail})`}`)
    .join('; ');
  const said = [run.resumed_from !== null ? 'Resumed an interrupted delivery.' : '', targets, run.status === 'running' ? (targets === '' ? 'Nothing sent yet.' : '…') : '']
    .filter((p) => p !== '')
    .join(' ');
  const error = run.status === 'interrupted' || targets === '' ? localTimes(run.error ?? '') : '';
  return [said, error].filter((p) => p !== '').join(' — ');
}

/** The server's words with the instants they name (ISO 8601, UTC) in the reader's own time. */
function localTimes(text: string): string {
  return text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
}

function History({ scope, subscription }: { scope: DeliveryScope; subscription: Subscription }) {
  const runs = useQuery(runsQuery(scope, subscription.id));
  return (
    <Load query={runs} what="the history">
      {(page) =>
        page.runs.length === 0 ? (
          <Empty>Not sent yet.</Empty>
        ) : (
          <table className="runs" aria-label={`History of ${subscription.name ?? `delivery ${subscription.id}`}`}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Trigger</th>
                <th scope="col">Status</th>
                <th scope="col">Recipients</th>
              </tr>
            </thead>
            <tbody>
              {page.runs.map((run: SubscriptionRun) => (
                <tr key={run.id}>
                  <td>{new Date(run.startedAt).toLocaleString()}</td>
                  <td>{run.trigger}</td>
                  <td data-testid="run-status">{RUN_STATUS[run.status]}</td>
                  <td>{describeRun(run)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Load>
  );
}

function SubscriptionForm({ scope, current, onDone }: { scope: DeliveryScope; current: Subscription | null; onDone: (message: string) => void }) {
  const client = useQueryClient();
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const [name, setName] = useState(current?.name ?? '');
  const [frequency, setFrequency] = useState<string>(current?.schedule.frequency ?? 'weekly');
  const [dayOfWeek, setDayOfWeek] = useState(String(current?.schedule.dayOfWeek ?? 1));
  const [dayOfMonth, setDayOfMonth] = useState(String(current?.schedule.dayOfMonth ?? 1));
  const [every, setEvery] = useState(String(current?.schedule.frequencyNumber ?? 1));
  const [time, setTime] = useState(current?.schedule.time ? `${two(current.schedule.time.hour)}:${two(current.schedule.time.minute)}` : '09:00');
  // Elapsed time counts from the last delivery: no time of day, no day.
  const bounds = isElapsedFrequency(frequency) ? FREQUENCY_BOUNDS[frequency] : null;
  /** A frequency chosen: the number kept within the new one's bounds (every 1 minute becomes every 15). */
  const chooseFrequency = (value: string) => {
    setFrequency(value);
    if (!isElapsedFrequency(value)) return;
    const { min, max } = FREQUENCY_BOUNDS[value];
    const n = Number(every);
    if (!Number.isInteger(n) || n < min || n > max) setEvery(String(Math.min(max, Math.max(min, Number.isInteger(n) ? n : min))));
  };
  const [timezone, setTimezone] = useState(current?.schedule.timezone ?? browserZone);
  const [format, setFormat] = useState<string>(current?.format ?? 'png');
  const [recipients, setRecipients] = useState((current?.recipients ?? []).join('\n'));
  const [slack, setSlack] = useState((current?.slackWebhooks ?? []).join('\n'));
  const [webhook, setWebhook] = useState(current?.webhook?.url ?? '');
  const [secret, setSecret] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => {
      const [hour, minute] = time.split(':').map(Number);
      const body = {
        name: name.trim() === '' ? null : name.trim(),
        schedule: bounds
          ? { frequency, frequencyNumber: Number(every), timezone }
          : {
              frequency,
              time: { hour: hour ?? 9, minute: minute ?? 0 },
              timezone,
              ...(frequency === 'weekly' ? { dayOfWeek: Number(dayOfWeek) } : {}),
              ...(frequency === 'monthly' ? { dayOfMonth: Number(dayOfMonth) } : {}),
            },
        format: format as CreateBody['format'],
        recipients: lines(recipients),
        slackWebhooks: lines(slack),
        webhook: webhook.trim() === '' ? null : { url: webhook.trim() },
      };
      return current ? routes(scope).update(current.id, body as UpdateBody) : routes(scope).create(body as CreateBody);
    },
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: ['project', scope.projectId, 'subscriptions'] });
      if (saved.webhookSecret && saved.webhookSecret !== '********') setSecret(saved.webhookSecret);
      else onDone(current ? 'Delivery saved.' : 'Delivery created.');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  if (secret) {
    return (
      <div className="delivery-secret">
        <p>The webhook's signing key, shown this once: every delivery carries `x-plotline-signature: sha256=HMAC(key, body)`.</p>
        <Field label="Signing key">
          <input readOnly value={secret} onFocus={(e) => e.target.select()} />
        </Field>
        <button type="button" onClick={() => onDone(current ? 'Delivery saved.' : 'Delivery created.')}>
          Done
        </button>
      </div>
    );
  }
  return (
    <form className="subscription-form" onSubmit={submit} aria-label={current ? 'Edit the delivery' : 'New delivery'}>
      <Field label="Name">
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="Monday numbers" />
      </Field>
      <Field label="Send">
        <select value={frequency} onChange={(e) => chooseFrequency(e.target.value)}>
          {FREQUENCIES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      {bounds ? (
        <Field label={`Every how many ${bounds.unit}`} hint={`From ${bounds.min} to ${bounds.max}, counted from the last delivery`}>
          <input type="number" min={bounds.min} max={bounds.max} step={1} required value={every} onChange={(e) => setEvery(e.target.value)} />
        </Field>
      ) : null}
      {frequency === 'weekly' ? (
        <Field label="On">
          <select value={dayOfWeek} onChange={(e) => setDayOfWeek(e.target.value)}>
            {DAYS.map((d, i) => (
              <option key={d} value={String(i + 1)}>
                {d}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      {frequency === 'monthly' ? (
        <Field label="Day of the month">
          <input type="number" min={1} max={31} value={dayOfMonth} onChange={(e) => setDayOfMonth(e.target.value)} />
        </Field>
      ) : null}
      {bounds ? null : (
        <>
          <Field label="At">
            <input type="time" value={time} onChange={(e) => setTime(e.target.value)} required />
          </Field>
          <Field label="Time zone">
            <input value={timezone} onChange={(e) => setTimezone(e.target.value)} required />
          </Field>
        </>
      )}
      <Field label="Format">
        <select value={format} onChange={(e) => setFormat(e.target.value)}>
          <option value="png">Picture (PNG, inline)</option>
          <option value="pdf">PDF (attached)</option>
        </select>
      </Field>
      <Field label="Email recipients" hint="One address per line">
        <textarea rows={2} value={recipients} onChange={(e) => setRecipients(e.target.value)} />
      </Field>
      <Field label="Slack incoming webhooks" hint="One URL per line">
        <textarea rows={2} value={slack} onChange={(e) => setSlack(e.target.value)} />
      </Field>
      <Field label="Webhook URL" hint="Receives signed JSON with the picture's link">
        <input value={webhook} onChange={(e) => setWebhook(e.target.value)} />
      </Field>
      <ErrorBox error={save.error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {current ? 'Save delivery' : 'Create delivery'}
        </button>
        <button type="button" onClick={() => onDone('')}>
          Cancel
        </button>
      </div>
    </form>
  );
}
