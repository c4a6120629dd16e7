import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ok } from '../api/client';
import { keys, sharePoliciesQuery } from '../api/queries';
import type { SharePolicy } from '../api/types';
import { Empty, ErrorBox, Field, Load, mutationsState } from '../ui';

export function DashboardShare({ projectId }: { projectId: number }) {
  const client = useQueryClient();
  const path = { id: projectId };
  const policies = useQuery(sharePoliciesQuery(projectId));
  const [links, setLinks] = useState<Record<number, string>>({});
  const reload = () => client.invalidateQueries({ queryKey: keys.sharePolicies(projectId) });
  const create = useMutation({ mutationFn: () => ok(api.POST('/project/{id}/share/policy', { params: { path } })), onSuccess: reload });
  const link = useMutation({
    mutationFn: (policy: SharePolicy) => ok(api.POST('/project/{id}/share/token', { params: { path }, body: { sharePolicyId: policy.id } })),
    onSuccess: (answer, policy) => setLinks((current) => ({ ...current, [policy.id]: answer.url })),
  });
  const revoke = useMutation({
    mutationFn: (policy: SharePolicy) => ok(api.POST('/project/{id}/share/policy/{policy_id}/revoke', { params: { path: { id: projectId, policy_id: policy.id } } })),
    onSuccess: (_answer, policy) => {
      setLinks(({ [policy.id]: _gone, ...rest }) => rest);
      return reload();
    },
  });
  const { busy, error } = mutationsState(create, link, revoke);
  return (
    <div className="panel share" aria-labelledby="share-title">
      <h2 id="share-title">Share</h2>
      <p className="hint">A link works until it expires or you revoke it. Locked params always apply; with “viewers may override”, URL parameters replace them.</p>
      <ErrorBox error={error} />
      <Load query={policies} what="share policies">
        {(list) =>
          list.length === 0 ? (
            <Empty>No share policy yet.</Empty>
          ) : (
            <ul className="rows">
              {list.map((policy) => (
                <li key={policy.id} className="policy">
                  <PolicyEditor projectId={projectId} policy={policy} />
                  <div className="actions">
                    <button type="button" className="primary" onClick={() => link.mutate(policy)} disabled={busy}>
                      Create link
                    </button>
                    <button type="button" className="danger" onClick={() => revoke.mutate(policy)} disabled={busy}>
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
      <button type="button" onClick={() => create.mutate()} disabled={busy}>
        New share policy
      </button>
    </div>
  );
}

function PolicyEditor({ projectId, policy }: { projectId: number; policy: SharePolicy }) {
  const client = useQueryClient();
  const [params, setParams] = useState(policy.params);
  const [allow, setAllow] = useState(policy.allow_params);
  const [expires, setExpires] = useState(policy.expires_at ? policy.expires_at.slice(0, 10) : '');
  useEffect(() => setParams(policy.params), [policy]);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PUT('/project/{id}/share/policy/{policy_id}', {
          params: { path: { id: projectId, policy_id: policy.id } },
          body: { params: params.filter((p) => p.key !== ''), allow_params: allow, expires_at: expires === '' ? null : new Date(expires + 'T23:59:59Z').toISOString() },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.sharePolicies(projectId) }),
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
      <ErrorBox error={save.error} />
      <button type="button" onClick={() => save.mutate()} disabled={save.isPending}>
        Save policy
      </button>
    </div>
  );
}
