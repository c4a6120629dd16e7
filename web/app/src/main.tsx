import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import '../../src/styles.css';
import './app.css';
import { api, ApiError, ok } from './api/client';
import { Link, match, Router, useRouter } from './router';
import { AuthScreen } from './screens/Auth';
import { ChartEditor } from './screens/ChartEditor';
import { Connections } from './screens/Connections';
import { Dashboard } from './screens/Dashboard';
import { Dashboards } from './screens/Dashboards';
import { DatasetEditor, Datasets } from './screens/Datasets';
import { ApiKeys, Members } from './screens/Team';
import { SessionContext, type Me, type Session, type TeamSummary } from './session';
import { ErrorBox, Loading } from './ui';

type Boot = { state: 'loading' } | { state: 'anonymous' } | { state: 'error'; error: Error } | { state: 'ready'; me: Me; teams: TeamSummary[] };

function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'loading' });
  const [teamId, setTeamId] = useState<number | null>(() => Number(localStorage.getItem('plotline.team')) || null);

  const load = async () => {
    try {
      const me = (await ok(api.GET('/user/me'))) as Me;
      const teams = (await ok(api.GET('/team'))) as unknown as TeamSummary[];
      setBoot({ state: 'ready', me, teams });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setBoot({ state: 'anonymous' });
      else setBoot({ state: 'error', error: err as Error });
    }
  };
  useEffect(() => {
    void load();
  }, []);

  if (boot.state === 'loading') return <Loading what="your workspace" />;
  if (boot.state === 'anonymous') return <AuthScreen onDone={() => void load()} />;
  if (boot.state === 'error') return <ErrorBox error={boot.error} retry={() => void load()} />;
  const team = boot.teams.find((t) => t.id === teamId) ?? boot.teams[0];
  if (!team) return <ErrorBox error="You are in no team; ask an owner to add you." />;
  const session: Session = {
    me: boot.me,
    teams: boot.teams,
    team,
    setTeam(id) {
      localStorage.setItem('plotline.team', String(id));
      setTeamId(id);
    },
    reloadTeams: () => void load(),
    async logout() {
      await ok(api.POST('/user/logout'));
      setBoot({ state: 'anonymous' });
    },
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
  else screen = <Dashboards />;
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
        <button type="button" className="link" onClick={() => void session.logout()}>
          Log out
        </button>
      </header>
      <main className="content" key={session.team.id}>
        {screen}
      </main>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Router>
      <App />
    </Router>
  </StrictMode>,
);
