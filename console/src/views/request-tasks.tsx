// A request's data tasks (PRODUCT.md §2.9), one per data system, found in its timeline; a manual
// task (its system has no endpoint) can be marked done here, with a note.
import { useEffect, useState } from 'preact/hooks';
import { systemLabel, systemNames } from '../lib/system-names';
import { api, queryString } from '../api/client';
import type { AuditEvent, DataSystemList, DataTask, DataTaskResult } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { formatTime } from '../lib/deadline';

/** The task ids the timeline names (entries about `data_task` targets). */
export function taskIds(events: AuditEvent[]): string[] {
  return [...new Set(events.filter((event) => event.target_type === 'data_task').map((event) => event.target_id))];
}

function MarkDone(props: { task: DataTask; onDone: (task: DataTask) => void }) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<DataTaskResult['outcome']>('completed');
  const [note, setNote] = useState('');
  const submit = useSubmit();
  if (!open)
    return (
      <button type="button" class="secondary small" onClick={() => setOpen(true)}>
        Mark done…
      </button>
    );
  return (
    <form
      class="action-form"
      aria-label={`Result of ${props.task.system_key}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit.run(async () => {
          const body: DataTaskResult = { outcome, ...(note.trim() ? { note: note.trim() } : {}) };
          const task = await api<DataTask>('POST', `/api/v1/data-tasks/${encodeURIComponent(props.task.id)}/result`, { body });
          props.onDone(task);
        });
      }}
    >
      <Field id={`outcome-${props.task.id}`} label="Outcome" errors={fieldErrors(submit.error, 'outcome')}>
        {(a11y) => (
          <select {...a11y} value={outcome} onChange={(e) => setOutcome(e.currentTarget.value as DataTaskResult['outcome'])}>
            <option value="completed">Completed</option>
            <option value="not_applicable">Not applicable (the system holds nothing)</option>
            <option value="failed">Failed</option>
          </select>
        )}
      </Field>
      <Field id={`note-${props.task.id}`} label="Note (what was done; recorded)" errors={fieldErrors(submit.error, 'note')}>
        {(a11y) => <textarea {...a11y} rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />}
      </Field>
      <div class="buttons">
        <button type="submit" disabled={submit.busy}>
          Confirm the result
        </button>
        <button type="button" class="secondary" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      <ErrorText error={submit.error} />
    </form>
  );
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

export function DataTasks(props: { workspace: string; ids: string[]; onChanged: () => void }) {
  const [tasks, setTasks] = useState<DataTask[] | null>(null);
  const [manual, setManual] = useState<Set<string> | null>(null);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const load = useSubmit();
  const key = props.ids.join(',');
  useEffect(() => {
    void load.run(async () => {
      setManual(await manualSystems(props.workspace));
      setNames(await systemNames(props.workspace));
      setTasks(await Promise.all(props.ids.map((id) => api<DataTask>('GET', `/api/v1/data-tasks/${encodeURIComponent(id)}`))));
    });
  }, [key]);
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
              {task.status === 'pending' && (manual === null || manual.has(task.system_key)) && (
                <MarkDone
                  task={task}
                  onDone={(updated) => {
                    setTasks(tasks.map((item) => (item.id === updated.id ? updated : item)));
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
