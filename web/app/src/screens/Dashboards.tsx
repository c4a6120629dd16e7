import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load, useAction, useAsync } from '../ui';

interface ProjectItem {
  id: number;
  name: string;
  dashboardTitle: string | null;
}

export function Dashboards() {
  const { team } = useSession();
  const { navigate } = useRouter();
  const [projects, reload] = useAsync(async () => (await ok(api.GET('/project/team/{team_id}', { params: { path: { team_id: team.id } } }))) as unknown as ProjectItem[], [team.id]);
  const [name, setName] = useState('');
  const action = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const project = await action.run(() => ok(api.POST('/project', { body: { name, team_id: team.id, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone } })));
    if (project) navigate(`/dashboards/${(project as { id: number }).id}`);
  };
  return (
    <section aria-labelledby="dashboards-title">
      <h1 id="dashboards-title">Dashboards</h1>
      <Load value={projects} what="dashboards" retry={reload}>
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
      <form className="panel inline-form" onSubmit={create} aria-label="New dashboard">
        <Field label="New dashboard name">
          <input value={name} required onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={action.busy}>
          Create dashboard
        </button>
        <ErrorBox error={action.error} />
      </form>
    </section>
  );
}
