import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { keys } from '../api/queries';
import type { Project, ScheduleUpdate } from '../api/types';
import { useSession } from '../session';
import { ErrorBox, Field, Success } from '../ui';
import { useUnsavedGuard } from './unsaved-guard';

type Frequency = NonNullable<ScheduleUpdate['frequency']>;
type Weekday = Exclude<NonNullable<ScheduleUpdate['dayOfWeek']>, number>;

const FREQUENCIES: [Frequency | '', string][] = [
  ['', 'Never (refresh by hand)'],
  ['daily', 'Every day'],
  ['weekly', 'Every week'],
  ['every_x_days', 'Every few days'],
  ['every_x_hours', 'Every few hours'],
  ['every_x_minutes', 'Every few minutes'],
];
const WEEKDAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const UNITS: Record<string, string> = { every_x_days: 'days', every_x_hours: 'hours', every_x_minutes: 'minutes' };

/** A stored frequency as one the form offers ('' : none). */
const frequencyOf = (value: string | undefined) => FREQUENCIES.find(([f]) => f === value)?.[0] ?? '';
/** A stored weekday (1 = Monday … 7, or its name) as its name. */
const weekday = (day: number | Weekday | undefined): Weekday => (typeof day === 'number' ? WEEKDAYS[day - 1] : day) ?? 'monday';
const weekdayOf = (value: string) => WEEKDAYS.find((d) => d === value) ?? 'monday';
const two = (n: number) => String(n).padStart(2, '0');

export function DashboardSettings({ project }: { project: Project }) {
  const { team } = useSession();
  const client = useQueryClient();
  const schedule = project.updateSchedule ?? {};
  const [title, setTitle] = useState(project.dashboardTitle ?? project.name);
  const [background, setBackground] = useState(project.backgroundColor ?? '#f5f6f8');
  const [titleColor, setTitleColor] = useState(project.titleColor ?? '#1d2433');
  const [timezone, setTimezone] = useState(project.timezone ?? 'UTC');
  const [frequency, setFrequency] = useState(frequencyOf(schedule.frequency));
  const [every, setEvery] = useState(String(schedule.frequencyNumber ?? 1));
  const [time, setTime] = useState(`${two(schedule.time?.hour ?? 6)}:${two(schedule.time?.minute ?? 0)}`);
  const [day, setDay] = useState(weekday(schedule.dayOfWeek));
  const [days, setDays] = useState(() => (schedule.daysOfWeek ?? []).map(weekday));
  const [saved, setSaved] = useState(false);
  const atTime = frequency === 'daily' || frequency === 'weekly';
  // Edits not saved yet: leaving the page or the screen asks first.
  const snapshot = JSON.stringify([title, background, titleColor, timezone, frequency, every, time, day, days]);
  const stored = useRef(snapshot);
  const sent = useRef(snapshot);
  useUnsavedGuard(snapshot !== stored.current, 'Leave without saving the dashboard settings? Your changes will be lost.');

  const save = useMutation({
    mutationFn: () => {
      const [hour, minute] = time.split(':').map(Number);
      const updateSchedule: ScheduleUpdate | null =
        frequency === ''
          ? null
          : {
              frequency,
              timezone,
              ...(UNITS[frequency] ? { frequencyNumber: Number(every) } : {}),
              ...(atTime ? { time: { hour, minute } } : {}),
              ...(frequency === 'weekly' ? { dayOfWeek: day } : {}),
              ...(frequency === 'daily' && days.length > 0 ? { daysOfWeek: WEEKDAYS.filter((d) => days.includes(d)) } : {}),
            };
      return ok(api.PUT('/project/{id}', { params: { path: { id: project.id } }, body: { dashboardTitle: title, backgroundColor: background, titleColor, timezone, updateSchedule } }));
    },
    onMutate: () => {
      sent.current = snapshot;
      setSaved(false);
    },
    onSuccess: () => {
      stored.current = sent.current;
      setSaved(true);
      // The title shows in the dashboards list too.
      return Promise.all([client.invalidateQueries({ queryKey: keys.project(project.id) }), client.invalidateQueries({ queryKey: keys.projects(team.id) })]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form className="panel settings" onSubmit={submit} aria-label="Dashboard settings">
      <h2>Settings</h2>
      <Field label="Title">
        <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field label="Background colour">
        <input type="color" value={background} onChange={(e) => setBackground(e.target.value)} />
      </Field>
      <Field label="Title colour">
        <input type="color" value={titleColor} onChange={(e) => setTitleColor(e.target.value)} />
      </Field>
      <Field label="Timezone" hint="IANA name, e.g. Europe/Paris; the schedule runs on this clock">
        <input value={timezone} onChange={(e) => setTimezone(e.target.value)} />
      </Field>
      <fieldset className="schedule">
        <legend>Update schedule</legend>
        <Field label="Refresh">
          <select value={frequency} onChange={(e) => setFrequency(frequencyOf(e.target.value))}>
            {FREQUENCIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        {UNITS[frequency] ? (
          <Field label={`Every how many ${UNITS[frequency]}`}>
            <input type="number" min={1} required value={every} onChange={(e) => setEvery(e.target.value)} />
          </Field>
        ) : null}
        {frequency === 'weekly' ? (
          <Field label="On">
            <select value={day} onChange={(e) => setDay(weekdayOf(e.target.value))}>
              {WEEKDAYS.map((d) => (
                <option key={d} value={d}>
                  {d[0]!.toUpperCase() + d.slice(1)}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {frequency === 'daily' ? (
          <fieldset className="days">
            <legend>Only on (none: every day)</legend>
            {WEEKDAYS.map((d) => (
              <label className="check" key={d}>
                <input type="checkbox" checked={days.includes(d)} onChange={(e) => setDays(e.target.checked ? [...days, d] : days.filter((x) => x !== d))} />{' '}
                {d[0]!.toUpperCase() + d.slice(1)}
              </label>
            ))}
          </fieldset>
        ) : null}
        {atTime ? (
          <Field label="At">
            <input type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
          </Field>
        ) : null}
        <p className="muted" data-testid="next-update">
          {project.updateSchedule?.frequency
            ? project.nextUpdateAt
              ? `Next scheduled refresh: ${new Date(project.nextUpdateAt).toLocaleString()}`
              : 'This schedule never comes due: check its settings.'
            : 'No schedule: charts refresh when you press Refresh all.'}
          {project.lastUpdatedAt ? ` Last one: ${new Date(project.lastUpdatedAt).toLocaleString()}.` : ''}
        </p>
      </fieldset>
      <ErrorBox error={save.error} />
      <Success message={saved ? 'Settings saved.' : null} />
      <button type="submit" className="primary" disabled={save.isPending}>
        Save settings
      </button>
    </form>
  );
}
