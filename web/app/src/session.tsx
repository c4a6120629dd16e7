import { createContext, useContext } from 'react';
import type { Team, User } from './api/types';

export interface Session {
  me: User;
  teams: Team[];
  team: Team;
  setTeam(id: number): void;
  logout(): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('no session');
  return session;
}
