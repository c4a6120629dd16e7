import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { filterName, rangeIsSet } from '../../../src/lib/filters';
import { api, ok } from '../api/client';
import { reachFilter } from '../api/filter-scope';
import { keys } from '../api/queries';
import type { Chart, DashboardFilter, Dataset, FilterConfiguration } from '../api/types';
import { ErrorBox, mutationsState, Success } from '../ui';
import { FilterControl } from './FilterControl';
import { FilterForm } from './FilterForm';
import { FilterReachNote, useFilterReach } from './FilterReach';
import './Filters.css';

export interface FilterRunState {
  /** idle: no filter has a value (the charts show their saved data). */
  state: 'idle' | 'running' | 'ready' | 'error';
  applied: number;
  error: Error | null;
}

interface Props {
  projectId: number;
  filters: DashboardFilter[];
  charts: Chart[];
  datasets: Dataset[];
  /** The configuration each filter is tried with (its saved one, or a value being tried). */
  tried: (filter: DashboardFilter) => FilterConfiguration;
  onTry: (filter: DashboardFilter, configuration: FilterConfiguration) => void;
  /** Drops the value being tried (after Undo, a save or a removal). */
  onForget: (filter: DashboardFilter) => void;
  run: FilterRunState;
}

/**
 * The dashboard's filters above its charts. Each shows its value, which can be changed to try it
 * (every chart runs again at once, nothing is saved) and then saved on its own ("Save value"); its
 * definition is edited in a form. Filters are reordered with Move left / Move right (or dragged by
 * their handle) and removed; the order is the report's too.
 */
export function FilterBar({ projectId, filters, charts, datasets, tried, onTry, onForget, run }: Props) {
  const client = useQueryClient();
  const key = keys.dashboardFilters(projectId);
  const [editing, setEditing] = useState<DashboardFilter | 'new' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  // After a move the moved filter's button keeps the focus, so the keyboard can move it again.
  const focusAfter = useRef<{ id: string; direction: 'left' | 'right' } | null>(null);
  const list = useRef<HTMLOListElement>(null);

  const reorder = useMutation({
    mutationFn: (filterIds: string[]) => ok(api.PUT('/project/{id}/dashboard-filters/order', { params: { path: { id: projectId } }, body: { filterIds } })),
    onMutate: (filterIds) => {
      client.setQueryData(key, (old: DashboardFilter[] | undefined) => (old ? filterIds.flatMap((id) => old.filter((f) => f.id === id)) : old));
    },
    onSuccess: (answer) => {
      client.setQueryData(key, answer);
      setMessage('Order saved.');
    },
    onError: () => client.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    mutationFn: (filter: DashboardFilter) => ok(api.DELETE('/project/{id}/dashboard-filter/{fid}', { params: { path: { id: projectId, fid: filter.id } } })),
    onSuccess: async (_answer, filter) => {
      onForget(filter);
      await client.invalidateQueries({ queryKey: key });
      setMessage(`Filter “${filterName(filter.configuration)}” removed.`);
    },
  });
  const saveValue = useMutation({
    mutationFn: (filter: DashboardFilter) =>
      ok(api.PUT('/project/{id}/dashboard-filter/{fid}', { params: { path: { id: projectId, fid: filter.id } }, body: { configuration: tried(filter) } })),
    onSuccess: async (_answer, filter) => {
      await client.invalidateQueries({ queryKey: key });
      onForget(filter);
      setMessage(`Value of “${filterName(filter.configuration)}” saved.`);
    },
  });
  const { busy, error } = mutationsState(reorder, remove, saveValue);
  // Where each saved filter reaches, whether or not it has a value: what a value does not change.
  const reach = useFilterReach(projectId, charts, filters.length > 0 ? { filters: filters.map((filter) => reachFilter(filter.id, filter.configuration)) } : null);

  const move = (index: number, to: number, direction: 'left' | 'right') => {
    if (reorder.isPending) return;
    const ids = filters.map((f) => f.id);
    const [id] = ids.splice(index, 1);
    ids.splice(to, 0, id!);
    focusAfter.current = { id: id!, direction };
    reorder.mutate(ids);
  };
  useEffect(() => {
    const target = focusAfter.current;
    if (!target || !list.current) return;
    const item = list.current.querySelector<HTMLElement>(`[data-filter-id="${target.id}"]`);
    const same = item?.querySelector<HTMLButtonElement>(`[data-move="${target.direction}"]:not(:disabled)`);
    const other = item?.querySelector<HTMLButtonElement>(`[data-move="${target.direction === 'left' ? 'right' : 'left'}"]:not(:disabled)`);
    const button = same ?? other;
    if (!button) return;
    button.focus();
    focusAfter.current = null;
  }, [filters]);

  const drop = (event: DragEvent, target: number) => {
    event.preventDefault();
    const from = filters.findIndex((f) => f.id === dragged);
    setDragged(null);
    if (from < 0 || from === target) return;
    move(from, target, from < target ? 'right' : 'left');
  };

  const runText =
    run.state === 'running'
      ? 'Applying the filters to every chart…'
      : run.state === 'ready'
        ? `Charts filtered by ${run.applied} filter${run.applied === 1 ? '' : 's'}${filters.some((f) => tried(f) !== f.configuration) ? '; values being tried are not saved until “Save value”' : ', with their saved values'}.`
        : run.state === 'idle'
          ? 'No filter has a value: the charts show their saved data.'
          : '';

  return (
    <section className="filter-bar panel" aria-labelledby="filters-title" data-run-state={run.state}>
      <div className="filter-bar-head">
        <h2 id="filters-title">Filters</h2>
        <button type="button" onClick={() => setEditing(editing === 'new' ? null : 'new')} aria-expanded={editing === 'new'}>
          Add a filter
        </button>
      </div>
      {filters.length === 0 ? (
        <p className="muted">No filter yet. A filter narrows every chart of the dashboard at once: by date, by a field's value, or by a dataset variable.</p>
      ) : (
        <ol className="filter-list" ref={list} aria-label="Dashboard filters">
          {filters.map((filter, index) => {
            const config = tried(filter);
            const name = filterName(filter.configuration);
            const changed = JSON.stringify(config) !== JSON.stringify(filter.configuration);
            return (
              <li
                key={filter.id}
                className={`filter-item${dragged === filter.id ? ' dragging' : ''}`}
                data-filter-id={filter.id}
                data-filter-type={config.type}
                draggable={dragged === filter.id}
                onDragStart={(e) => e.dataTransfer.setData('text/plain', filter.id)}
                onDragEnd={() => setDragged(null)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => drop(e, index)}
              >
                <div className="filter-item-head">
                  <span className="filter-handle" aria-hidden="true" title="Drag to reorder" onMouseDown={() => setDragged(filter.id)} onMouseUp={() => setDragged(null)}>
                    ⠿
                  </span>
                  {filter.onReport ? <span className="badge">On report</span> : null}
                  {config.type === 'variable' && config.allowValueChange === false ? <span className="badge">Fixed for viewers</span> : null}
                  {changed ? <span className="badge badge-changed">Not saved</span> : null}
                </div>
                <FilterControl config={config} onChange={(next) => onTry(filter, next)} />
                <FilterReachNote reach={reach.reach?.get(filter.id)} />
                <div className="filter-item-actions">
                  {changed ? (
                    <>
                      <button
                        type="button"
                        className="primary"
                        // A saved date filter needs a range: "Any time" can be tried, not saved.
                        disabled={busy || (config.type === 'date' && !rangeIsSet(config))}
                        onClick={() => saveValue.mutate(filter)}
                        aria-label={`Save value of ${name}`}
                      >
                        Save value
                      </button>
                      <button type="button" className="link" onClick={() => onForget(filter)} aria-label={`Undo the value of ${name}`}>
                        Undo
                      </button>
                    </>
                  ) : null}
                  <button type="button" data-move="left" aria-label={`Move ${name} left`} disabled={index === 0} onClick={() => move(index, index - 1, 'left')}>
                    ←
                  </button>
                  <button type="button" data-move="right" aria-label={`Move ${name} right`} disabled={index === filters.length - 1} onClick={() => move(index, index + 1, 'right')}>
                    →
                  </button>
                  <button type="button" className="link" aria-label={`Edit ${name}`} aria-expanded={editing !== null && editing !== 'new' && editing.id === filter.id} onClick={() => setEditing(filter)}>
                    Edit
                  </button>
                  <button type="button" className="link danger" aria-label={`Remove ${name}`} disabled={busy} onClick={() => remove.mutate(filter)}>
                    Remove
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <p className="muted filter-run" role="status" data-testid="filter-run">
        {runText}
      </p>
      <ErrorBox error={run.state === 'error' ? run.error : null} />
      <ErrorBox error={error} />
      <Success message={message} />
      {editing !== null ? (
        <FilterForm
          key={editing === 'new' ? 'new' : editing.id}
          projectId={projectId}
          filter={editing === 'new' ? null : editing}
          charts={charts}
          datasets={datasets}
          onDone={(done) => {
            if (done && editing !== 'new') onForget(editing);
            setEditing(null);
            setMessage(done);
          }}
        />
      ) : null}
    </section>
  );
}
