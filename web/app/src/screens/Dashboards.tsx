import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { keys, projectsQuery } from '../api/queries';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load } from '../ui';

export function Dashboards() {
  const { team } = useSession();
  const { navigate } = useRouter();
  const client = useQueryClient();
  const projects = useQuery(projectsQuery(team.id));
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => ok(api.POST('/project', { body: { name, team_id: team.id, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone } })),
    onSuccess: (project) => {
      void client.invalidateQueries({ queryKey: keys.projects(team.id) });
      navigate(`/dashboards/${project.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="dashboards-title">
      <h1 id="dashboards-title">Dashboards</h1>
      <Load query={projects} what="dashboards">
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No dashboard yet. Create one below, then add charts to it.</p>
            </Empty>
          ) : (
            <ul className="cards">
              {list.map((p) => (
                <li key={p.id} className="panel">
                  <Link to={`/dashboards/${p.id}`}>{p.dashboardTitle || p.name}</Link>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <form className="panel inline-form" onSubmit={submit} aria-label="New dashboard">
        <Field label="New dashboard name">
          <input value={name} required onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create dashboard
        </button>
        <ErrorBox error={create.error} />
      </form>
    </section>
  );
}
