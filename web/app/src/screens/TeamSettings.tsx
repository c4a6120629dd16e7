import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { keys } from '../api/queries';
import { useSession } from '../session';
import { ErrorBox, Success } from '../ui';

/**
 * The team's settings for what its share pages offer: downloads (CSV/XLSX) on shared reports, and
 * the "Made with Plotline" line. Only the team's owner and admins see these fields; other roles are
 * told so.
 */
export function TeamSettings() {
  const { team } = useSession();
  const client = useQueryClient();
  const managed = team.allowReportExport !== undefined || team.showBranding !== undefined;
  const [allowReportExport, setExport] = useState(team.allowReportExport ?? false);
  const [showBranding, setBranding] = useState(team.showBranding ?? true);
  const [done, setDone] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => ok(api.PUT('/team/{team_id}', { params: { path: { team_id: team.id } }, body: { allowReportExport, showBranding } })),
    onSuccess: () => {
      setDone('Team settings saved.');
      return client.invalidateQueries({ queryKey: keys.teams });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    save.mutate();
  };
  return (
    <section className="panel" aria-labelledby="team-settings-title">
      <h1 id="team-settings-title">Team settings: {team.name}</h1>
      {!managed ? (
        <p>Only the team's owner and admins change these settings.</p>
      ) : (
        <form onSubmit={submit}>
          <fieldset>
            <legend>Shared reports</legend>
            <label className="check">
              <input type="checkbox" checked={allowReportExport} onChange={(e) => setExport(e.target.checked)} /> Viewers of a share link may download each chart as CSV or XLSX
            </label>
            <label className="check">
              <input type="checkbox" checked={showBranding} onChange={(e) => setBranding(e.target.checked)} /> Show “Made with Plotline” at the bottom of shared reports
            </label>
          </fieldset>
          <ErrorBox error={save.error} />
          <Success message={done} />
          <button type="submit" className="primary" disabled={save.isPending}>
            Save team settings
          </button>
        </form>
      )}
    </section>
  );
}
