// A request's data tasks (PRODUCT.md §2.9), one per data system, found in its timeline; a manual
// task (its system has no endpoint) can be marked done here (task-result-form.tsx). What a task's
// system answered shows on it: counts, an answer sent separately, and its note (PRODUCT §2.13).
import { useState } from 'preact/hooks';
import { systemLabel, systemNames } from '../lib/system-names';
import { api, queryString } from '../api/client';
import type { AuditEvent, DataSystemList, DataTask } from '../api/types';
import { ErrorText } from '../components/forms';
import { useLoad } from '../components/use-load';
import { formatTime } from '../lib/deadline';
import { MarkDone } from './task-result-form';

/** The task ids the timeline names (entries about `data_task` targets). */
export function taskIds(events: AuditEvent[]): string[] {
  return [...new Set(events.filter((event) => event.target_type === 'data_task').map((event) => event.target_id))];
}

/** Keys of the workspace's manual systems (their tasks are done by hand); null when the token may not list systems. */
async function manualSystems(workspace: string): Promise<Set<string> | null> {
  try {
    const systems = await api<DataSystemList>('GET', `/api/v1/data-systems${queryString({ workspace_id: workspace })}`);
    return new Set(systems.items.filter((system) => system.kind === 'manual').map((system) => system.key));
  } catch {
    return null;
  }
}

/**
 * Why a database system was not searched (PRODUCT §2.17: status `not_searchable`): the identities
 * it is searched by and those the request had; null for any other task.
 */
export function notSearchableHint(task: Pick<DataTask, 'status' | 'result'>): string | null {
  if (task.status !== 'not_searchable') return null;
  const names = (value: unknown) => (Array.isArray(value) ? value.join(', ') : '') || 'none';
  return (
    `Not searched: the system finds people by ${names(task.result?.searched_by)}; the request had ${names(task.result?.request_had)}. ` +
    'A request waiting for the identity review can be re-pointed to one of those identities to have it searched.'
  );
}

/** What a database system's run did, per collection (PRODUCT §2.14): rows read, masked, deleted or updated. */
export function collectionCounts(result: DataTask['result']): string | null {
  const collections = result?.collections as Record<string, Record<string, number>> | undefined;
  if (!collections || Object.keys(collections).length === 0) return null;
  return Object.entries(collections)
    .map(
      ([name, counts]) =>
        `${name}: ${Object.entries(counts)
          .map(([what, n]) => `${n} ${what}`)
          .join(', ')}`,
    )
    .join('; ');
}

/** "user.content: 3, user.name: 0": a result's `records`, or null without any. */
export function recordCounts(result: DataTask['result']): string | null {
  const records = result?.records as Record<string, number> | undefined;
  if (!records || Object.keys(records).length === 0) return null;
  return Object.entries(records)
    .map(([category, n]) => `${category}: ${n}`)
    .join(', ');
}

/** What the task's result says besides its status: counts, an answer sent separately, the note. */
function TaskAnswer({ task }: { task: DataTask }) {
  const counts = recordCounts(task.result);
  const note = typeof task.result?.note === 'string' ? task.result.note : null;
  return (
    <>
      {counts && <p class="hint">Records found: {counts}</p>}
      {task.result?.delivered_separately === true && <p class="hint">The answer is sent to the person separately.</p>}
      {note && <p class="reason">Note: {note}</p>}
    </>
  );
}

/**
 * The request's tasks; `onTasks` hands them to the caller as loaded or changed (the timeline
 * shows each task's note with its entry).
 */
export function DataTasks(props: {
  workspace: string;
  ids: string[];
  onChanged: () => void;
  onTasks?: (tasks: DataTask[]) => void;
}) {
  const [tasks, setTasks] = useState<DataTask[] | null>(null);
  const [manual, setManual] = useState<Set<string> | null>(null);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const load = useLoad(
    async (isCurrent) => {
      const [manualKeys, systemLabels, loaded] = await Promise.all([
        manualSystems(props.workspace),
        systemNames(props.workspace),
        Promise.all(props.ids.map((id) => api<DataTask>('GET', `/api/v1/data-tasks/${encodeURIComponent(id)}`))),
      ]);
      if (!isCurrent()) return;
      setManual(manualKeys);
      setNames(systemLabels);
      setTasks(loaded);
      props.onTasks?.(loaded);
    },
    [props.workspace, props.ids.join(',')],
  );
  if (props.ids.length === 0) return <p>No data task: no data system of the workspace takes part in this request.</p>;
  return (
    <>
      <ErrorText error={load.error} />
      {tasks && (
        <ul class="plain">
          {tasks.map((task) => (
            <li key={task.id}>
              <p>
                <strong>{systemLabel(names, task.system_key)}</strong> ({task.categories.join(', ')}):{' '}
                {task.status.replace('_', ' ')}
                {task.overdue ? <strong class="overdue"> — overdue</strong> : ''}, due {formatTime(task.due_at)}
                {task.completed_at ? `, done ${formatTime(task.completed_at)}` : ''}
              </p>
              {collectionCounts(task.result) && <p class="hint">Rows by table: {collectionCounts(task.result)}</p>}
              {notSearchableHint(task) && <p class="hint">{notSearchableHint(task)}</p>}
              <TaskAnswer task={task} />
              {task.status === 'pending' && (manual === null || manual.has(task.system_key)) && (
                <MarkDone
                  task={task}
                  onDone={(updated) => {
                    const next = tasks.map((item) => (item.id === updated.id ? updated : item));
                    setTasks(next);
                    props.onTasks?.(next);
                    props.onChanged();
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
