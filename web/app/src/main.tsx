import { QueryClient, QueryClientProvider, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '../../src/styles.css';
import './app.css';
import { api, ok } from './api/client';
import { keys, meQuery, teamsQuery } from './api/queries';
import { Link, match, Router, useRouter } from './router';
import { AuthScreen, InviteScreen } from './screens/Auth';
import { Connections } from './screens/Connections';
import { Dashboards } from './screens/Dashboards';
import { Datasets } from './screens/Datasets';
import { ApiKeys, Members } from './screens/Team';
import { SessionContext, type Session } from './session';
import { ErrorBox, Loading, ScreenBoundary } from './ui';

// The screens that bring a heavy library (the dashboard grid, Chart.js, CodeMirror) load when first
// opened, so the login and the dashboards list do not wait for them.
const Dashboard = lazy(() => import('./screens/Dashboard').then((m) => ({ default: m.Dashboard })));
const ChartEditor = lazy(() => import('./screens/ChartEditor').then((m) => ({ default: m.ChartEditor })));
const TeamSettings = lazy(() => import('./screens/TeamSettings').then((m) => ({ default: m.TeamSettings })));
const DatasetEditor = lazy(() => import('./screens/DatasetEditor').then((m) => ({ default: m.DatasetEditor })));

const queryClient = new QueryClient({
  defaultOptions: {
    // A failed load shows its error and Try again at once. The screens' forms start from the data
    // they loaded, so nothing is fetched again behind them when the window regains focus.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});

function App() {
  const client = useQueryClient();
  const me = useQuery(meQuery);
  const teams = useQuery({ ...teamsQuery, enabled: Boolean(me.data) });
  const [teamId, setTeamId] = useState<number | null>(() => Number(localStorage.getItem('plotline.team')) || null);
  const logout = useMutation({
    mutationFn: () => ok(api.POST('/user/logout')),
    onSuccess: () => {
      // Nothing of this user's stays in memory for whoever signs in next.
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.me[0] });
      client.setQueryData(keys.me, null);
    },
  });

  const { path } = useRouter();
  if (me.isPending) return <Loading what="your workspace" />;
  if (me.isError) return <ErrorBox error={me.error} retry={() => void me.refetch()} />;
  // An invitation link opens here, signed in or not.
  if (match('/invite', path)) return <InviteScreen signedIn={me.data !== null} />;
  if (me.data === null) return <AuthScreen />;
  if (teams.isPending) return <Loading what="your workspace" />;
  if (teams.isError) return <ErrorBox error={teams.error} retry={() => void teams.refetch()} />;
  const team = teams.data.find((t) => t.id === teamId) ?? teams.data[0];
  if (!team) return <ErrorBox error="You are in no team; ask an owner to add you." />;
  const session: Session = {
    me: me.data,
    teams: teams.data,
    team,
    setTeam(id) {
      localStorage.setItem('plotline.team', String(id));
      setTeamId(id);
    },
    logout: () => logout.mutate(),
  };
  return (
    <SessionContext.Provider value={session}>
      <Shell session={session} />
    </SessionContext.Provider>
  );
}

function Shell({ session }: { session: Session }) {
  const { path, navigate } = useRouter();
  const [menu, setMenu] = useState(false);
  let screen;
  let m: Record<string, string> | null;
  if ((m = match('/dashboards/:pid/charts/:cid', path))) screen = <ChartEditor projectId={Number(m['pid'])} chartId={m['cid'] === 'new' ? null : Number(m['cid'])} />;
  else if ((m = match('/dashboards/:pid', path))) screen = <Dashboard projectId={Number(m['pid'])} />;
  else if (match('/connections', path)) screen = <Connections />;
  else if ((m = match('/datasets/:id', path))) screen = <DatasetEditor datasetId={Number(m['id'])} />;
  else if (match('/datasets', path)) screen = <Datasets />;
  else if (match('/members', path)) screen = <Members />;
  else if (match('/keys', path)) screen = <ApiKeys />;
  else if (match('/team-settings', path)) screen = <TeamSettings />;
  else if (path === '/') screen = <Dashboards />;
  else screen = <NotFound path={path} />;
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          Plotline
        </Link>
        <button type="button" className="menu-toggle" aria-expanded={menu} aria-controls="nav" onClick={() => setMenu(!menu)}>
          Menu
        </button>
        <nav id="nav" className={menu ? 'open' : ''} aria-label="Main" onClick={() => setMenu(false)}>
          <Link to="/">Dashboards</Link>
          <Link to="/connections">Connections</Link>
          <Link to="/datasets">Datasets</Link>
          <Link to="/members">Members</Link>
          <Link to="/keys">API keys</Link>
          <Link to="/team-settings">Team settings</Link>
        </nav>
        <label className="team-switch">
          <span className="sr-only">Team</span>
          <select
            aria-label="Team"
            value={session.team.id}
            onChange={(e) => {
              session.setTeam(Number(e.target.value));
              navigate('/');
            }}
          >
            {session.teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="link" onClick={session.logout}>
          Log out
        </button>
      </header>
      <main className="content" key={session.team.id}>
        <ScreenBoundary path={path}>
          <Suspense fallback={<Loading what="the page" />}>{screen}</Suspense>
        </ScreenBoundary>
      </main>
    </div>
  );
}

/** An /app/… address that is no screen: said so, with the way back. */
function NotFound({ path }: { path: string }) {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <div className="empty" data-state="not-found">
        <p>
          There is no page at <code>/app{path}</code>. It may have moved, or the link is mistyped.
        </p>
        <p>
          <Link to="/">Back to your dashboards</Link>
        </p>
      </div>
    </section>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Router>
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
