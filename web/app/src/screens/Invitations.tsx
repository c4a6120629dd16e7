import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { oneOf } from '../api/narrow';
import type { Role } from '../api/types';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, mutationsState } from '../ui';
import { DashboardPicker, isProjectRole } from './DashboardPicker';

const ROLES: Role[] = ['projectViewer', 'projectEditor', 'projectAdmin', 'teamAdmin', 'teamOwner'];
const invitationsKey = (teamId: number) => ['team', teamId, 'invitations'] as const;

/**
 * Invitation links: a role, its dashboards, an expiry; each link works once. Whoever opens one
 * without an account signs up into the team (/app/invite). E-mailed when an address is given and
 * the server has SMTP; the link is shown once either way.
 */
export function Invitations() {
  const { team } = useSession();
  const client = useQueryClient();
  const path = { team_id: team.id };
  const list = useQuery({ queryKey: invitationsKey(team.id), queryFn: () => ok(api.GET('/team/{team_id}/invite', { params: { path } })) });
  const email = useQuery({ queryKey: [...invitationsKey(team.id), 'email'], queryFn: () => ok(api.GET('/team/{team_id}/invite/email', { params: { path } })) });
  const [role, setRole] = useState<Role>('projectViewer');
  const [projects, setProjects] = useState<number[]>([]);
  const [days, setDays] = useState('7');
  const [address, setAddress] = useState('');
  const [created, setCreated] = useState<{ url: string; emailed: boolean; to: string | null } | null>(null);
  const reload = () => client.invalidateQueries({ queryKey: invitationsKey(team.id) });
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/team/{team_id}/invite', {
          params: { path },
          body: { role, ...(isProjectRole(role) ? { projects } : {}), expiresInDays: Number(days), ...(address.trim() ? { email: address.trim() } : {}) },
        }),
      ),
    onSuccess: (answer) => {
      setCreated({ url: answer.url, emailed: answer.emailed, to: answer.invitation.email });
      setAddress('');
      return reload();
    },
  });
  const revoke = useMutation({ mutationFn: (id: number) => ok(api.DELETE('/team/{team_id}/invite/{invite_id}', { params: { path: { ...path, invite_id: id } } })), onSuccess: reload });
  const { busy, error } = mutationsState(create, revoke);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <div className="panel invitations" role="region" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <p className="hint" data-testid="invite-email-state">
        {email.data?.configured
          ? 'This server e-mails an invitation to the address you give.'
          : email.data
            ? 'This server has no SMTP server configured (PLOTLINE_SMTP_URL): send the link yourself.'
            : ' '}
      </p>
      {created ? (
        <div className="panel notice" role="status">
          <p>
            {created.emailed ? `E-mailed to ${created.to}. ` : created.to ? `Not e-mailed to ${created.to}: send it yourself. ` : ''}
            This link is shown only now; it works once.
          </p>
          <code className="secret" data-testid="invite-link">
            {created.url}
          </code>
          <div className="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(created.url)}>
              Copy link
            </button>
            <button type="button" className="link" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <ErrorBox error={error} />
      <form className="inline-form" onSubmit={submit} aria-label="New invitation">
        <Field label="Invited role">
          <select value={role} onChange={(e) => setRole(oneOf(ROLES, e.target.value) ?? 'projectViewer')}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <Field label="Link works for">
          <select value={days} onChange={(e) => setDays(e.target.value)}>
            {['1', '3', '7', '14', '30'].map((d) => (
              <option key={d} value={d}>
                {d} day{d === '1' ? '' : 's'}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Email (optional)" hint="Only this address may use the link">
          <input type="email" value={address} onChange={(e) => setAddress(e.target.value)} />
        </Field>
        {isProjectRole(role) ? <DashboardPicker label="Dashboards of the invited member" value={projects} onChange={setProjects} /> : null}
        <button type="submit" className="primary" disabled={busy}>
          Create invitation link
        </button>
      </form>
      <Load query={list} what="invitations">
        {(rows) =>
          rows.length === 0 ? (
            <Empty>No invitation yet.</Empty>
          ) : (
            <div className="table-wrap">
              <table aria-label="Invitations">
                <thead>
                  <tr>
                    <th scope="col">Role</th>
                    <th scope="col">For</th>
                    <th scope="col">Status</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((inv) => (
                    <tr key={inv.id}>
                      <td>{inv.role}</td>
                      <td>{inv.email ?? 'anyone with the link'}</td>
                      <td>{inv.status}</td>
                      <td>{new Date(inv.expiresAt).toLocaleString()}</td>
                      <td>
                        {inv.status === 'pending' ? (
                          <button type="button" className="danger" onClick={() => revoke.mutate(inv.id)} disabled={busy}>
                            Revoke
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Load>
    </div>
  );
}
