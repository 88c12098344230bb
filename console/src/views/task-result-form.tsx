// "Mark done" for a manual data task (PRODUCT §2.9, §2.13): the outcome, and for a completed
// access/export task what the system holds (counts per category, the data as JSON or a JSON/CSV
// file up to 1 MiB) or that the answer reaches the person separately; a note, kept on the task.
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { DataTask, DataTaskResult } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { categoryLabel, categoryName, categoryNames, useCategories } from '../lib/categories';
import { dataFromFile, parseCounts, parseData } from '../lib/task-data';

/** Access and export tasks answer with data (their results go into the package and the letter). */
const takesData = (task: DataTask) => task.request_type === 'access' || task.request_type === 'export';

/** The counts, one number box per category of the task. */
function Counts(props: {
  task: DataTask;
  counts: Record<string, string>;
  onChange: (c: Record<string, string>) => void;
  errors: string[];
}) {
  const { task } = props;
  // In plain words (PRODUCT §2.21): "E-mail address", not `user.contact.email`.
  const names = categoryNames(useCategories());
  return (
    <fieldset aria-describedby={`records-${task.id}-hint${props.errors.length ? ` records-${task.id}-error` : ''}`}>
      <legend>Records found, per data category</legend>
      <p class="hint" id={`records-${task.id}-hint`}>
        How many records the system holds about the person (0 when it holds none). Shown to the person in the letter.
      </p>
      {task.categories.map((category) => (
        <div class="field" key={category}>
          <label for={`records-${task.id}-${category}`}>
            {categoryName(names, category)} <span class="muted">({category})</span>
          </label>
          <input
            id={`records-${task.id}-${category}`}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={props.counts[category] ?? ''}
            onInput={(e) => props.onChange({ ...props.counts, [category]: e.currentTarget.value })}
          />
        </div>
      ))}
      {props.errors.length > 0 && (
        <p class="field-error" id={`records-${task.id}-error`}>
          {props.errors.join(' ')}
        </p>
      )}
    </fieldset>
  );
}

/** The data box and its file picker (a JSON file as it is, a CSV file's rows under the task's first category). */
function DataInput(props: { task: DataTask; data: string; onChange: (d: string) => void; errors: string[] }) {
  const { task } = props;
  const [fileError, setFileError] = useState<string | null>(null);
  const category = task.categories[0] ?? 'user';
  const names = categoryNames(useCategories());
  return (
    <>
      <Field
        id={`data-${task.id}`}
        label="Data (JSON: data category → what the system holds)"
        hint={`Goes into the person's package and letter, each category under its plain name (${categoryLabel(names, category)}). At most 1 MiB. Example: {"${category}": [{"subject": "Refund"}]}`}
        errors={props.errors}
      >
        {(a11y) => <textarea {...a11y} rows={4} value={props.data} onInput={(e) => props.onChange(e.currentTarget.value)} />}
      </Field>
      <Field
        id={`file-${task.id}`}
        label="Or read the data from a file (JSON or CSV)"
        hint={`A CSV file's rows go under ${categoryLabel(names, category)}; the box above shows what will be sent.`}
        errors={fileError ? [fileError] : []}
      >
        {(a11y) => (
          <input
            {...a11y}
            type="file"
            accept=".json,.csv,application/json,text/csv"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              setFileError(null);
              if (file)
                dataFromFile(file, category).then(props.onChange, (error: unknown) =>
                  setFileError(error instanceof Error ? error.message : String(error)),
                );
            }}
          />
        )}
      </Field>
    </>
  );
}

/** The form behind "Mark done…"; `onDone` gets the task as the API answered it. */
export function MarkDone(props: { task: DataTask; onDone: (task: DataTask) => void }) {
  const { task } = props;
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<DataTaskResult['outcome']>('completed');
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [data, setData] = useState('');
  const [separately, setSeparately] = useState(false);
  const [note, setNote] = useState('');
  const [dataError, setDataError] = useState<string | null>(null);
  const submit = useSubmit();
  if (!open)
    return (
      <button type="button" class="secondary small" onClick={() => setOpen(true)}>
        Mark done…
      </button>
    );
  const answers = outcome === 'completed' && takesData(task);
  return (
    <form
      class="action-form"
      aria-label={`Result of ${task.system_key}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        let parsed: Record<string, unknown> | undefined;
        try {
          parsed = answers ? parseData(data) : undefined;
          setDataError(null);
        } catch (error) {
          setDataError(error instanceof Error ? error.message : String(error));
          return;
        }
        const records = answers ? parseCounts(counts) : undefined;
        void submit.run(async () => {
          const body: DataTaskResult = {
            outcome,
            ...(records ? { records } : {}),
            ...(parsed ? { data: parsed } : {}),
            ...(answers && separately ? { delivered_separately: true } : {}),
            ...(note.trim() ? { note: note.trim() } : {}),
          };
          props.onDone(await api<DataTask>('POST', `/api/v1/data-tasks/${encodeURIComponent(task.id)}/result`, { body }));
        });
      }}
    >
      <Field id={`outcome-${task.id}`} label="Outcome" errors={fieldErrors(submit.error, 'outcome')}>
        {(a11y) => (
          <select {...a11y} value={outcome} onChange={(e) => setOutcome(e.currentTarget.value as DataTaskResult['outcome'])}>
            <option value="completed">Completed</option>
            <option value="not_applicable">Not applicable (the system holds nothing)</option>
            <option value="failed">Failed</option>
          </select>
        )}
      </Field>
      {answers && (
        <>
          <Counts task={task} counts={counts} onChange={setCounts} errors={fieldErrors(submit.error, 'records')} />
          <DataInput
            task={task}
            data={data}
            onChange={setData}
            errors={fieldErrors(submit.error, 'data', dataError ? [dataError] : [])}
          />
          <div class="field checkbox">
            <input
              type="checkbox"
              id={`separately-${task.id}`}
              checked={separately}
              onChange={(e) => setSeparately(e.currentTarget.checked)}
            />
            <label for={`separately-${task.id}`}>The answer is sent to the person separately (the letter says so)</label>
          </div>
        </>
      )}
      <Field id={`note-${task.id}`} label="Note (what was done; recorded)" errors={fieldErrors(submit.error, 'note')}>
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
