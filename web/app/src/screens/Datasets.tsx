import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { connectionsQuery, datasetsQuery, keys, projectsQuery } from '../api/queries';
import type { Connection } from '../api/types';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load } from '../ui';

export function Datasets() {
  const { team } = useSession();
  const { navigate } = useRouter();
  const client = useQueryClient();
  const datasets = useQuery(datasetsQuery(team.id));
  const connections = useQuery(connectionsQuery(team.id));
  const projects = useQuery(projectsQuery(team.id));
  const [name, setName] = useState('');
  const [connectionId, setConnectionId] = useState<number | null>(null);
  // A new dataset is on no dashboard yet (a project role's goes to its own dashboards): a chart that uses it attaches it.
  const create = useMutation({
    mutationFn: ({ connection }: { connection: number | null }) =>
      ok(api.POST('/team/{team_id}/datasets/quick-create', { params: { path: { team_id: team.id } }, body: { name, dataRequests: [{ connection_id: connection, query: 'select 1 as value' }] } })),
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: keys.datasets(team.id) });
      navigate(`/datasets/${created.id}`);
    },
  });
  const submit = (event: FormEvent, conns: Connection[]) => {
    event.preventDefault();
    create.mutate({ connection: connectionId ?? conns[0]?.id ?? null });
  };
  return (
    <section aria-labelledby="datasets-title">
      <h1 id="datasets-title">Datasets</h1>
      <Load query={datasets} what="datasets">
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No dataset yet: a dataset is a query on one of your connections.</p>
            </Empty>
          ) : (
            <ul className="rows panel">
              {list.map((d) => (
                <li key={d.id}>
                  <Link to={`/datasets/${d.id}`}>{d.name ?? `Dataset ${d.id}`}</Link>
                  <span className="muted">
                    {d.DataRequests[0]?.Connection?.name ?? 'no connection'} ·{' '}
                    {d.project_ids.length === 0
                      ? 'on no dashboard yet'
                      : (projects.data ?? [])
                          .filter((p) => d.project_ids.includes(p.id))
                          .map((p) => p.dashboardTitle || p.name)
                          .join(', ') || `${d.project_ids.length} dashboard${d.project_ids.length === 1 ? '' : 's'}`}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <Load query={connections} what="connections">
        {(conns) =>
          conns.length === 0 ? (
            <Empty>
              <p>
                Add a <Link to="/connections">connection</Link> first.
              </p>
            </Empty>
          ) : (
            <form className="panel inline-form" onSubmit={(e) => submit(e, conns)} aria-label="New dataset">
              <Field label="New dataset name">
                <input required value={name} onChange={(e) => setName(e.target.value)} />
              </Field>
              <Field label="Connection">
                <select value={connectionId ?? conns[0]!.id} onChange={(e) => setConnectionId(Number(e.target.value))}>
                  {conns.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </Field>
              <button type="submit" className="primary" disabled={create.isPending}>
                Create dataset
              </button>
              <ErrorBox error={create.error} />
            </form>
          )
        }
      </Load>
    </section>
  );
}
