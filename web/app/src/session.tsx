import { createContext, useContext } from 'react';

export type Me = { id: number; name: string; email?: string };
export interface TeamSummary {
  id: number;
  name: string;
  allowReportExport?: boolean;
  TeamRoles: { user_id: number; role: string }[];
  Projects?: { id: number; name: string }[];
}

export interface Session {
  me: Me;
  teams: TeamSummary[];
  team: TeamSummary;
  setTeam(id: number): void;
  reloadTeams(): void;
  logout(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('no session');
  return session;
}

export function roleIn(session: Session): string {
  return session.team.TeamRoles.find((r) => r.user_id === session.me.id)?.role ?? 'projectViewer';
}
