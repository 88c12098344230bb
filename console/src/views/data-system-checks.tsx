// A database system's checks (PRODUCT §2.14, §2.17): Test (reachable, latency, each collection's
// state) and Preview for a person (the planned statements, placeholders only, nothing written).
// Where the API says so, each collection's fields a masking cannot write (`cannot_mask`) and the
// searched columns without an index (`unindexed`) are shown with them.
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import {
  type DataSystem,
  type DataSystemPreview,
  type DataSystemPreviewBody,
  type DataSystemTest,
  REQUEST_TYPES,
  type RequestType,
} from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { uncheckedCollections, warnedCollections } from '../lib/warnings';

export const systemPath = (id: string) => `/api/v1/data-systems/${encodeURIComponent(id)}`;
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** The warnings, in words: what an erasure could not write, what a search reads without an index. */
export function Warnings({ answer, label }: { answer: unknown; label: string }) {
  const warned = warnedCollections(answer);
  const unchecked = uncheckedCollections(answer);
  if (warned.length === 0 && unchecked.length === 0) return null;
  return (
    <section class="warnings" aria-label={label}>
      <p>
        <strong>Before a deletion runs here:</strong>
      </p>
      {unchecked.length > 0 && (
        <p>
          Not checked (the database&apos;s rules and indexes could not be read):{' '}
          {unchecked.map((name, i) => (
            <span key={name}>
              {i > 0 ? ', ' : ''}
              <code>{name}</code>
            </span>
          ))}
          . Nothing is known about what a masking could write there.
        </p>
      )}
      <ul>
        {warned.map(({ name, warnings }) => (
          <li key={name}>
            <code>{name}</code>
            <ul>
              {(warnings.cannot_mask ?? []).map((w) => (
                <li key={`m-${w.field}`}>
                  cannot mask <code>{w.field}</code>: {w.reason}
                </li>
              ))}
              {(warnings.unindexed ?? []).map((w) => (
                <li key={`u-${w.field}`}>
                  <code>{w.field}</code> is searched without an index
                  {typeof w.estimated_rows === 'number' ? ` (about ${w.estimated_rows} rows read per search)` : ''}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TestResult({ result }: { result: DataSystemTest }) {
  return (
    <div role="status" aria-label="Test result">
      <p>
        {result.reachable ? <strong>Reachable</strong> : <strong>Not reachable</strong>}
        {result.latency_ms !== null ? ` in ${result.latency_ms} ms` : ''}
        {result.error ? `: ${result.error}` : '.'}
      </p>
      <div class="table-scroll">
        <table class="queue">
          <caption>Collections on the database</caption>
          <thead>
            <tr>
              <th scope="col">Collection</th>
              <th scope="col">Exists</th>
              <th scope="col">Can read</th>
              <th scope="col">Can write</th>
            </tr>
          </thead>
          <tbody>
            {result.collections.map((c) => (
              <tr key={c.name}>
                <td data-label="Collection">
                  <code>{c.name}</code>
                </td>
                <td data-label="Exists">{yesNo(c.exists)}</td>
                <td data-label="Can read">{yesNo(c.can_read)}</td>
                <td data-label="Can write">{yesNo(c.can_write)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Warnings answer={result} label="Warnings of the test" />
    </div>
  );
}

function PreviewResult({ result }: { result: DataSystemPreview }) {
  return (
    <div role="status" aria-label="Preview result">
      <p>
        {result.statements.length} statement{result.statements.length === 1 ? '' : 's'} for a {result.request_type} request over{' '}
        {result.categories.join(', ') || 'no category'}; nothing was written.
      </p>
      <table class="queue statements">
        <caption>Planned statements, in order</caption>
        <thead>
          <tr>
            <th scope="col">Collection</th>
            <th scope="col">Operation</th>
            <th scope="col">Rows</th>
            <th scope="col">Statement</th>
          </tr>
        </thead>
        <tbody>
          {result.statements.map((s, i) => (
            <tr key={i}>
              <td data-label="Collection">
                <code>{s.collection}</code>
              </td>
              <td data-label="Operation">{s.operation}</td>
              <td data-label="Rows">{s.rows}</td>
              <td data-label="Statement">
                <code class="sql">{s.sql}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Warnings answer={result} label="Warnings of the preview" />
    </div>
  );
}

/** Preview for a person: the identity as a request would name it, and the request type. */
export function PreviewForm({ system }: { system: DataSystem }) {
  const [provider, setProvider] = useState('email');
  const [subjectId, setSubjectId] = useState('');
  const [requestType, setRequestType] = useState<RequestType>('access');
  const [result, setResult] = useState<DataSystemPreview | null>(null);
  const submit = useSubmit();
  const id = `preview-${system.id}`;
  return (
    <form
      class="action-form"
      aria-label={`Preview ${system.name} for a person`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit.run(async () => {
          const body: DataSystemPreviewBody = {
            subject_provider: provider.trim(),
            subject_id: subjectId.trim(),
            request_type: requestType,
          };
          setResult(await api<DataSystemPreview>('POST', `${systemPath(system.id)}/preview`, { body }));
        });
      }}
    >
      <p class="hint">
        Shows what a request for this person would run here, with the rows each statement would touch. Nothing is written.
      </p>
      <Field
        id={`${id}-provider`}
        label="Subject provider"
        hint="email, or the provider of an account id (github, clerk…)"
        errors={fieldErrors(submit.error, 'subject_provider')}
      >
        {(a11y) => <input {...a11y} value={provider} onInput={(e) => setProvider(e.currentTarget.value)} />}
      </Field>
      <Field id={`${id}-subject`} label="Subject id" errors={fieldErrors(submit.error, 'subject_id')}>
        {(a11y) => <input {...a11y} value={subjectId} onInput={(e) => setSubjectId(e.currentTarget.value)} />}
      </Field>
      <Field id={`${id}-type`} label="Request type">
        {(a11y) => (
          <select {...a11y} value={requestType} onChange={(e) => setRequestType(e.currentTarget.value as RequestType)}>
            {REQUEST_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" disabled={submit.busy}>
        {submit.busy ? 'Planning…' : 'Preview statements'}
      </button>
      <ErrorText error={submit.error} />
      {result && <PreviewResult result={result} />}
    </form>
  );
}
