import { useQuery } from '@tanstack/react-query';
import { projectsQuery } from '../api/queries';
import type { Role } from '../api/types';
import { useSession } from '../session';

/** Team-wide roles reach every dashboard; the others only those they are given. */
export const isProjectRole = (role: Role) => role !== 'teamOwner' && role !== 'teamAdmin';

/** The dashboards a project role (a member, a key, an invitation) covers, as checkboxes. */
export function DashboardPicker({ label, value, onChange }: { label: string; value: number[]; onChange: (next: number[]) => void }) {
  const { team } = useSession();
  const projects = useQuery(projectsQuery(team.id));
  return (
    <fieldset className="dashboard-picker">
      <legend>{label}</legend>
      {projects.data?.length === 0 ? <p className="hint">No dashboard yet.</p> : null}
      {projects.data?.map((p) => (
        <label className="check" key={p.id}>
          <input type="checkbox" checked={value.includes(p.id)} onChange={(e) => onChange(e.target.checked ? [...value, p.id] : value.filter((id) => id !== p.id))} />{' '}
          {p.dashboardTitle || p.name}
        </label>
      ))}
    </fieldset>
  );
}

