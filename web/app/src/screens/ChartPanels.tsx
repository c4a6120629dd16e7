import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ok } from '../api/client';
import type { Chart, ChartAlert } from '../api/types';
import { ErrorBox, Field, Load, mutationsState, Success } from '../ui';
import { useSession } from '../session';

/** A panel above the grid with a heading and a close button; the focus goes to its heading. */
export function Panel({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  return (
    <section className="panel card-panel" aria-label={title}>
      <div className="toolbar">
        <h2 tabIndex={-1} ref={(el) => el?.focus()}>
          {title}
        </h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {children}
    </section>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The refresh history of a dashboard, or of one chart when `chartId` is given (`GET …/runs`). */
export function RunHistory({ projectId, chartId, names }: { projectId: number; chartId?: number; names: Map<number, string> }) {
  const runs = useQuery({
    queryKey: ['runs', projectId, chartId ?? null],
    queryFn: () =>
      chartId === undefined
        ? ok(api.GET('/project/{id}/runs', { params: { path: { id: projectId }, query: { limit: 20 } } }))
        : ok(api.GET('/project/{project_id}/chart/{id}/runs', { params: { path: { project_id: projectId, id: chartId }, query: { limit: 20 } } })),
  });
  return (
    <Load query={runs} what="the run history">
      {(page) =>
        page.runs.length === 0 ? (
          <p className="muted">No refresh recorded yet.</p>
        ) : (
          <table className="runs">
            <caption className="sr-only">Latest refreshes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Trigger</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Charts</th>
              </tr>
            </thead>
            <tbody>
              {page.runs.map((run) => (
                <tr key={run.id} data-status={run.status}>
                  <td>{when(run.startedAt)}</td>
                  <td>{run.trigger}</td>
                  <td>{run.status.replace('_', ' ')}</td>
                  <td>{run.durationMs} ms</td>
                  <td>
                    {run.charts
                      .filter((c) => chartId === undefined || c.chart_id === chartId)
                      .map((c) => (
                        <div key={c.chart_id}>
                          {names.get(c.chart_id) ?? `Chart ${c.chart_id}`}: {c.status}
                          {c.error ? ` (${c.error.code}: ${c.error.message})` : `, ${c.rowsRead} rows${c.cacheHit ? ', from the cache' : ''}`}
                        </div>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Load>
  );
}

const KINDS = [
  ['threshold_above', 'Above a threshold'],
  ['threshold_below', 'Below a threshold'],
  ['milestone', 'Reaches a milestone'],
  ['anomaly', 'An anomaly (standard deviations)'],
] as const;
type Kind = (typeof KINDS)[number][0];

/** What the alert form holds: empty for a new alert, or an alert's own values to change. */
interface AlertDraft {
  kind: Kind;
  value: string;
  recipients: string;
  webhook: string;
  /** The team integrations notified. */
  chosen: number[];
}

const NEW_ALERT: AlertDraft = { kind: 'threshold_above', value: '', recipients: '', webhook: '', chosen: [] };

/** An alert in the form; its webhook's signing key is never answered again, so only its URL is. */
function draftOf(alert: ChartAlert): AlertDraft {
  return {
    kind: KINDS.find(([k]) => k === alert.type)?.[0] ?? NEW_ALERT.kind,
    value: alert.rules.value === undefined ? '' : String(alert.rules.value),
    recipients: alert.recipients.join(', '),
    webhook: alert.mediums.webhook?.enabled ? alert.mediums.webhook.url : '',
    chosen: alert.AlertIntegrations.filter((link) => link.enabled).map((link) => link.integration_id),
  };
}

const addresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((r) => r.trim())
    .filter((r) => r !== '');

/**
 * A chart's alerts (`…/chart/{id}/alert`): the list, a new alert, changing one (loaded into the
 * same form), pausing it, and removal.
 */
export function Alerts({ projectId, chart }: { projectId: number; chart: Chart }) {
  const client = useQueryClient();
  const path = { project_id: projectId, id: chart.id };
  const key = ['alerts', projectId, chart.id];
  const alerts = useQuery({ queryKey: key, queryFn: () => ok(api.GET('/project/{project_id}/chart/{id}/alert', { params: { path } })) });
  const [draft, setDraft] = useState<AlertDraft>(NEW_ALERT);
  const change = (fields: Partial<AlertDraft>) => setDraft((d) => ({ ...d, ...fields }));
  // The alert being changed, or null for a new one.
  const [editing, setEditing] = useState<ChartAlert | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { team } = useSession();
  // The team's integrations (Slack or other webhooks set up once for the team) an alert may notify.
  const integrations = useQuery({ queryKey: ['integrations', team.id], queryFn: () => ok(api.GET('/team/{team_id}/integration', { params: { path: { team_id: team.id } } })) });
  const mediums = useQuery({ queryKey: [...key, 'mediums'], queryFn: () => ok(api.GET('/project/{project_id}/chart/{id}/alert-mediums', { params: { path } })) });
  const emailOff = mediums.data?.email.available === false;
  const { kind, value, recipients, webhook, chosen } = draft;
  const reload = () => client.invalidateQueries({ queryKey: key });

  // An alert loaded into the form takes the focus there, to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (editing) heading.current?.focus();
  }, [editing]);
  const edit = (alert: ChartAlert | null) => {
    setEditing(alert);
    setDraft(alert ? draftOf(alert) : NEW_ALERT);
    setDone(null);
  };

  /** The form's fields as a body. Changing an alert says each medium it has, so an emptied field turns that medium off. */
  const body = (current: ChartAlert | null) => {
    const url = webhook.trim();
    const emails = addresses(recipients);
    // Without an SMTP server the address field is off: an alert changed then stops e-mailing.
    const email = !emailOff && emails.length > 0;
    const fields = {
      type: kind,
      rules: value.trim() === '' ? {} : { value: Number(value) },
      recipients: emails,
      mediums: {
        ...(email || !current || current.mediums.email ? { email: { enabled: email } } : {}),
        ...(url !== '' ? { webhook: { enabled: true, url } } : current?.mediums.webhook ? { webhook: { enabled: false } } : {}),
      },
    };
    if (!current) return { ...fields, ...(chosen.length > 0 ? { alertIntegrations: chosen.map((id) => ({ integration_id: id })) } : {}) };
    // The list replaces the alert's own: an integration unticked stays linked, turned off.
    const linked = current.AlertIntegrations.map((link) => link.integration_id);
    const ids = [...linked, ...chosen.filter((id) => !linked.includes(id))];
    return { ...fields, alertIntegrations: ids.map((id) => ({ integration_id: id, enabled: chosen.includes(id) })) };
  };

  const save = useMutation({
    mutationFn: (current: ChartAlert | null) =>
      current
        ? ok(api.PUT('/project/{project_id}/chart/{id}/alert/{alert_id}', { params: { path: { ...path, alert_id: current.id } }, body: body(current) }))
        : ok(api.POST('/project/{project_id}/chart/{id}/alert', { params: { path }, body: body(null) })),
    onSuccess: (saved, current) => {
      // The webhook's signing key is answered in full only by the request that made it; masked after.
      const secret = saved.webhookSecret && !/^\*+$/.test(saved.webhookSecret) ? saved.webhookSecret : undefined;
      const what = current ? `Alert ${current.id} saved.` : 'Alert created.';
      // The form is left empty for the next alert: a second press does not make the same one again.
      if (current) edit(null);
      else setDraft(NEW_ALERT);
      setDone(secret ? `${what} The webhook's signing key, shown this once: ${secret}` : what);
      return reload();
    },
  });
  const pause = useMutation({
    mutationFn: (alert: ChartAlert) => ok(api.PUT('/project/{project_id}/chart/{id}/alert/{alert_id}', { params: { path: { ...path, alert_id: alert.id } }, body: { active: !alert.active } })),
    onMutate: () => setDone(null),
    onSuccess: (alert) => {
      setDone(`Alert ${alert.id} ${alert.active ? 'resumed' : 'paused'}.`);
      return reload();
    },
  });
  const [tested, setTested] = useState<{ text: string; ok: boolean } | null>(null);
  const test = useMutation({
    mutationFn: (id: number) => ok(api.POST('/project/{project_id}/chart/{id}/alert/{alert_id}/test', { params: { path: { ...path, alert_id: id } } })),
    onMutate: () => setTested(null),
    onSuccess: ({ deliveries }) =>
      setTested({
        text: deliveries.length === 0 ? 'Test sent: the alert has no medium to send it through.' : `Test sent: ${deliveries.map((d) => `${d.medium} ${d.ok ? 'delivered' : `failed (${d.detail})`}`).join('; ')}.`,
        ok: deliveries.length > 0 && deliveries.every((d) => d.ok),
      }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => ok(api.DELETE('/project/{project_id}/chart/{id}/alert/{alert_id}', { params: { path: { ...path, alert_id: id } } })),
    onSuccess: (_answer, id) => {
      if (editing?.id === id) edit(null);
      return reload();
    },
  });
  const { error } = mutationsState(save, pause, test, remove);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    save.mutate(editing);
  };

  return (
    <>
      <Load query={alerts} what="the alerts">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">No alert on this chart yet.</p>
          ) : (
            <ul className="alerts">
              {list.map((alert) => (
                <li key={alert.id} data-alert-id={alert.id} data-active={String(alert.active)}>
                  <strong>{KINDS.find(([k]) => k === alert.type)?.[1] ?? alert.type}</strong> {alert.rules.value ?? (alert.type === 'anomaly' ? 3 : '')}
                  {alert.recipients.length > 0 ? ` → ${alert.recipients.join(', ')}` : ''}
                  {alert.mediums.webhook?.enabled ? ' → webhook' : ''}
                  {alert.AlertIntegrations.length > 0 ? ` → ${alert.AlertIntegrations.length} integration${alert.AlertIntegrations.length === 1 ? '' : 's'}` : ''}
                  {alert.active ? null : <span className="alert-paused"> · paused</span>}
                  {alert.lastTriggeredAt ? <span className="muted"> · last triggered {when(alert.lastTriggeredAt)}</span> : null}{' '}
                  <button type="button" className="link" onClick={() => edit(alert)}>
                    Edit alert {alert.id}
                  </button>{' '}
                  <button type="button" className="link" onClick={() => pause.mutate(alert)} disabled={pause.isPending}>
                    {alert.active ? 'Pause' : 'Resume'} alert {alert.id}
                  </button>{' '}
                  <button type="button" className="link" onClick={() => test.mutate(alert.id)} disabled={test.isPending}>
                    Send a test of alert {alert.id}
                  </button>{' '}
                  <button type="button" className="link danger" onClick={() => remove.mutate(alert.id)}>
                    Delete alert {alert.id}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <form onSubmit={submit} className="alert-form" aria-labelledby={`alert-form-${chart.id}`}>
        <h3 id={`alert-form-${chart.id}`} tabIndex={-1} ref={heading}>
          {editing ? `Edit alert ${editing.id}` : 'New alert'}
        </h3>
        <Field label="When the value is">
          <select value={kind} onChange={(e) => change({ kind: e.target.value as Kind })}>
            {KINDS.map(([k, text]) => (
              <option key={k} value={k}>
                {text}
              </option>
            ))}
          </select>
        </Field>
        <Field label={kind === 'anomaly' ? 'Standard deviations' : 'Value'} hint={kind === 'anomaly' ? 'Default 3' : undefined}>
          <input required={kind !== 'anomaly'} inputMode="decimal" value={value} onChange={(e) => change({ value: e.target.value })} />
        </Field>
        <p className="hint" role="note" data-testid="smtp-status">
          {mediums.isPending ? 'Checking whether this server can send e-mail…' : emailOff ? 'E-mail: not available, this server has no SMTP server (PLOTLINE_SMTP_URL). Use a webhook.' : 'E-mail: available (SMTP server configured).'}
        </p>
        <Field label="Email recipients" hint="Team members' addresses, separated by commas; empty: no e-mail">
          <input value={recipients} disabled={emailOff} onChange={(e) => change({ recipients: e.target.value })} />
        </Field>
        <Field label="Webhook URL" hint={editing ? 'Called with the alert as JSON; empty: no webhook. Its signing key stays as it is' : 'Called with the alert as JSON (optional)'}>
          <input type="url" value={webhook} onChange={(e) => change({ webhook: e.target.value })} />
        </Field>
        <fieldset>
          <legend>Team integrations</legend>
          {integrations.isError ? (
            <p className="muted">The team's integrations could not be read ({integrations.error.message}).</p>
          ) : (integrations.data ?? []).length === 0 ? (
            <p className="muted">{integrations.isPending ? 'Reading the team’s integrations…' : 'No integration in this team yet (a team admin adds them).'}</p>
          ) : (
            (integrations.data ?? []).map((integration) => (
              <label className="check" key={integration.id}>
                <input
                  type="checkbox"
                  checked={chosen.includes(integration.id)}
                  onChange={(e) => change({ chosen: e.target.checked ? [...chosen, integration.id] : chosen.filter((id) => id !== integration.id) })}
                />{' '}
                Notify {integration.name} ({integration.type})
              </label>
            ))
          )}
        </fieldset>
        <ErrorBox error={error} />
        {tested?.ok ? <Success message={tested.text} /> : <ErrorBox error={tested?.text ?? null} />}
        <Success message={done} />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {editing ? 'Save alert' : 'Create alert'}
          </button>
          {editing ? (
            <button
              type="button"
              onClick={() => {
                edit(null);
                // The button goes with the edit: the focus stays in the form.
                heading.current?.focus();
              }}
            >
              Cancel editing
            </button>
          ) : null}
        </div>
      </form>
    </>
  );
}

/**
 * A chart's share links and embed code (`…/chart/{id}/share/policy` and `…/share/token`): a link
 * for a policy (one is created when the chart has none), its iframe code, and revoking them.
 */
export function ChartShare({ projectId, chart }: { projectId: number; chart: Chart }) {
  const client = useQueryClient();
  const path = { project_id: projectId, id: chart.id };
  const key = ['chart-share', projectId, chart.id];
  const policies = useQuery({ queryKey: key, queryFn: () => ok(api.GET('/project/{project_id}/chart/{id}/share/policy', { params: { path } })) });
  const [url, setUrl] = useState<string | null>(null);
  const issue = useMutation({
    mutationFn: async () => {
      const existing = policies.data?.[0] ?? (await ok(api.POST('/project/{project_id}/chart/{id}/share/policy', { params: { path } })));
      return ok(api.POST('/project/{project_id}/chart/{id}/share/token', { params: { path }, body: { sharePolicyId: existing.id } }));
    },
    onSuccess: (answer) => {
      setUrl(answer.url);
      return client.invalidateQueries({ queryKey: key });
    },
  });
  const revoke = useMutation({
    mutationFn: async () => {
      for (const policy of policies.data ?? []) await ok(api.POST('/project/{project_id}/chart/{id}/share/policy/{policy_id}/revoke', { params: { path: { ...path, policy_id: policy.id } } }));
    },
    onSuccess: () => setUrl(null),
  });
  const title = (chart.name ?? 'Chart').replace(/"/g, '&quot;');
  const embed = url ? `<iframe src="${url}" title="${title}" width="600" height="400" style="border:0" loading="lazy"></iframe>` : '';
  return (
    <>
      <p className="hint">Anyone with the link sees this chart, until you revoke the links. The embed code shows it inside another page.</p>
      <Load query={policies} what="the chart's share links">
        {(list) => <p className="muted">{list.length === 0 ? 'No link yet.' : `${list.length} share ${list.length === 1 ? 'policy' : 'policies'}.`}</p>}
      </Load>
      <ErrorBox error={issue.error ?? revoke.error} />
      <div className="actions">
        <button type="button" className="primary" onClick={() => issue.mutate()} disabled={issue.isPending}>
          Create link
        </button>
        <button type="button" className="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending || (policies.data ?? []).length === 0}>
          Revoke links
        </button>
      </div>
      {url ? (
        <>
          <Field label="Chart link">
            <input readOnly value={url} onFocus={(e) => e.target.select()} />
          </Field>
          <Field label="Embed code">
            <textarea readOnly rows={3} value={embed} onFocus={(e) => e.target.select()} />
          </Field>
          <div className="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(embed)}>
              Copy embed code
            </button>
            <a className="button" href={url} target="_blank" rel="noreferrer noopener">
              Open
            </a>
          </div>
        </>
      ) : null}
    </>
  );
}
