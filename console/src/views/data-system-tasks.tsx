// A data system's last tasks (PRODUCT §2.21): each with its request (or opt-out), status and what the system
// did, so an officer sees that a deletion happened without SQL: rows masked and deleted per
// collection for a database's erasure, rows read for an access, records per category otherwise.
// Counts only: a task's data never shows here.
import { useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { DataSystem, DataTask, DataTaskPage } from '../api/types';
import { ErrorText } from '../components/forms';
import { useLoad } from '../components/use-load';
import { formatTime, statusLabel } from '../lib/deadline';
import { requestHref } from '../lib/router';

/** How many of a system's tasks are shown. */
const LAST = 5;

type Counts = Record<string, Record<string, number>>;

/** "customer: 1 masked; preference: 1 deleted": what a database did, per collection (zeros left out, unless all are). */
export function collectionWork(result: DataTask['result']): string | null {
  const collections = result?.collections as Counts | undefined;
  if (!collections || Object.keys(collections).length === 0) return null;
  return Object.entries(collections)
    .map(([name, counts]) => {
      const done = Object.entries(counts).filter(([, n]) => n > 0);
      const shown = done.length ? done : Object.entries(counts);
      return `${name}: ${shown.map(([what, n]) => `${n} ${what === 'rows' ? 'rows read' : what}`).join(', ')}`;
    })
    .join('; ');
}

/** "user.name: 2, user.contact.email: 1": records found, or erased, per category. */
function categoryWork(result: DataTask['result'], field: 'records' | 'erased'): string | null {
  const counts = result?.[field] as Record<string, number> | undefined;
  if (!counts || Object.keys(counts).length === 0) return null;
  return Object.entries(counts)
    .map(([category, n]) => `${category}: ${n}`)
    .join(', ');
}

function TaskLine({ task }: { task: DataTask }) {
  const work = collectionWork(task.result);
  const erased = categoryWork(task.result, 'erased');
  const records = categoryWork(task.result, 'records');
  return (
    <li>
      <p>
        {task.request_id !== null ? (
          <a href={requestHref(task.request_id)}>{task.request_id}</a>
        ) : (
          // An opt-out's task (PRODUCT §2.18): the opt-outs view lists its opt-out.
          <a href="#/opt-outs">opt-out {task.opt_out_id}</a>
        )}{' '}
        ({task.request_type}): <strong>{statusLabel(task.status)}</strong>
        {task.overdue ? <strong class="overdue"> — overdue</strong> : ''}
        {task.completed_at ? `, done ${formatTime(task.completed_at)}` : `, due ${formatTime(task.due_at)}`}
      </p>
      {work && (
        <p class="hint">
          {task.request_type === 'deletion' ? 'Erasure' : 'Rows'} by collection: {work}
        </p>
      )}
      {!work && erased && <p class="hint">Erased, by category: {erased}</p>}
      {!work && records && <p class="hint">Records found, by category: {records}</p>}
    </li>
  );
}

/** The system's last {@link LAST} tasks, newest first. `version` reloads them. */
export function SystemTasks({ system, version }: { system: DataSystem; version: number }) {
  const [tasks, setTasks] = useState<DataTask[] | null>(null);
  const load = useLoad(
    async (isCurrent) => {
      const query = queryString({ workspace_id: system.workspace_id, system_key: system.key, limit: LAST });
      const page = await api<DataTaskPage>('GET', `/api/v1/data-tasks${query}`);
      if (isCurrent()) setTasks(page.items);
    },
    [system.id, version],
  );
  return (
    <section class="system-tasks" aria-label={`Last tasks of ${system.name}`}>
      <h3>Last tasks</h3>
      <ErrorText error={load.error} />
      {tasks && tasks.length === 0 && <p>No task yet: none of the workspace’s requests has reached this system.</p>}
      {tasks && tasks.length > 0 && (
        <ul class="plain">
          {tasks.map((task) => (
            <TaskLine task={task} key={task.id} />
          ))}
        </ul>
      )}
    </section>
  );
}
