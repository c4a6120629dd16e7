import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { connectionsQuery, datasetsQuery, keys, projectsQuery, sharePoliciesQuery } from '../api/queries';
import { Link, useRouter } from '../router';
import { useSession } from '../session';
import { Empty, ErrorBox, Field, Load } from '../ui';
import './Data.css';

export function Dashboards() {
  const { team, me } = useSession();
  const { navigate } = useRouter();
  // The first steps are for those who can take them all (connections are the team's owners' and admins').
  const manages = team.TeamRoles.some((r) => r.user_id === me.id && (r.role === 'teamOwner' || r.role === 'teamAdmin'));
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
      {projects.data && manages ? <GettingStarted projects={projects.data} /> : null}
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

/**
 * The first steps, from an empty team to a shared dashboard, each with its link and marked done
 * once done; gone when all are.
 */
function GettingStarted({ projects }: { projects: { id: number; public: boolean; Charts: unknown[] }[] }) {
  const { team } = useSession();
  const connections = useQuery(connectionsQuery(team.id));
  const datasets = useQuery(datasetsQuery(team.id));
  const withChart = projects.find((p) => p.Charts.length > 0);
  const policies = useQuery({ ...sharePoliciesQuery(withChart?.id ?? 0), enabled: withChart !== undefined });
  // Nothing until every step is known: the steps would show for a moment, then go, while the share policies load.
  if (connections.isPending || datasets.isPending || (withChart !== undefined && policies.isPending)) return null;
  const steps = [
    { done: (connections.data?.length ?? 0) > 0, to: '/connections', label: 'Add a connection', hint: 'your database or API, tested before it is saved' },
    { done: (datasets.data?.length ?? 0) > 0, to: '/datasets', label: 'Create a dataset', hint: 'a query on that connection, run in the SQL editor' },
    {
      done: withChart !== undefined,
      to: projects[0] ? `/dashboards/${projects[0].id}/charts/new` : null,
      label: 'Add a chart to a dashboard',
      hint: projects[0] ? 'any dataset of the team can be used' : 'create a dashboard below, then add a chart drawn from your dataset',
    },
    {
      done: withChart !== undefined && (withChart.public || (policies.data?.length ?? 0) > 0),
      to: withChart ? `/dashboards/${withChart.id}` : null,
      label: 'Share it',
      hint: 'a share link opens the dashboard for people without an account',
    },
  ];
  if (steps.every((step) => step.done)) return null;
  return (
    <section className="panel" aria-labelledby="getting-started-title" data-testid="getting-started">
      <h2 id="getting-started-title">Getting started</h2>
      <ol className="steps">
        {steps.map((step) => (
          <li key={step.label} data-done={step.done}>
            <span>
              {step.to ? <Link to={step.to}>{step.label}</Link> : <strong>{step.label}</strong>}
              <span className="muted">: {step.hint}</span>
            </span>
            <span className="step-state muted">{step.done ? 'Done' : 'To do'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
