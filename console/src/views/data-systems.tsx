// Data systems on the Connections page (PRODUCT.md §2.9, §2.14): webhook and manual systems, and
// databases the service runs itself, with their dataset summary, a connection test and a preview
// of a subject's statements (placeholders only; nothing is written).
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import {
  type DataSystem,
  type DataSystemList,
  type DataSystemPreview,
  type DataSystemPreviewBody,
  type DataSystemTest,
  REQUEST_TYPES,
  type RequestType,
} from '../api/types';
import { ErrorText, Field, Section, useSubmit } from '../components/forms';

const KIND_NAMES: Record<DataSystem['kind'], string> = {
  webhook: 'Webhook',
  manual: 'Manual',
  postgres: 'PostgreSQL database',
  mysql: 'MySQL / MariaDB database',
};

const systemPath = (id: string) => `/api/v1/data-systems/${encodeURIComponent(id)}`;
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

type Warnings = Pick<DataSystemTest['collections'][number], 'cannot_mask' | 'unindexed'>;

/** What the database's own rules say of a collection (PRODUCT §2.17), in words; never "none" for a table not looked at. */
function warningLines(w: Warnings): string[] {
  if (w.cannot_mask === null || w.unindexed === null) return ['not looked at (the table could not be read)'];
  return [
    ...w.cannot_mask.map((c) => `cannot mask ${c.field}: ${c.reason}`),
    ...w.unindexed.map(
      (u) =>
        `${u.field} is searched without an index (${u.estimated_rows === null ? 'rows not estimated yet' : `about ${u.estimated_rows} rows`})`,
    ),
  ];
}

function TestResult({ result }: { result: DataSystemTest }) {
  return (
    <div role="status">
      <p>
        {result.reachable ? <strong>Reachable</strong> : <strong>Not reachable</strong>}
        {result.latency_ms !== null ? ` in ${result.latency_ms} ms` : ''}
        {result.error ? `: ${result.error}` : '.'}
      </p>
      <table class="queue">
        <caption>Collections on the database</caption>
        <thead>
          <tr>
            <th scope="col">Collection</th>
            <th scope="col">Exists</th>
            <th scope="col">Can read</th>
            <th scope="col">Can write</th>
            <th scope="col">The database's rules</th>
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
              <td data-label="The database's rules">{warningLines(c).join('; ') || 'nothing to warn of'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PreviewResult({ result }: { result: DataSystemPreview }) {
  return (
    <div role="status">
      <p>
        {result.statements.length} statement{result.statements.length === 1 ? '' : 's'} for a {result.request_type} request over{' '}
        {result.categories.join(', ') || 'no category'}; nothing was written.
      </p>
      {result.warnings === null ? (
        <p>The database's rules (NOT NULL, UNIQUE, indexes) could not be read.</p>
      ) : result.warnings.length > 0 ? (
        <ul aria-label="The database's rules">
          {result.warnings.flatMap((w) =>
            warningLines(w).map((line) => (
              <li key={`${w.collection} ${line}`}>
                <code>{w.collection}</code>: {line}
              </li>
            )),
          )}
        </ul>
      ) : null}
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
    </div>
  );
}

function PreviewForm({ system }: { system: DataSystem }) {
  const [provider, setProvider] = useState('github');
  const [subjectId, setSubjectId] = useState('');
  const [requestType, setRequestType] = useState<RequestType>('access');
  const [result, setResult] = useState<DataSystemPreview | null>(null);
  const submit = useSubmit();
  const id = `preview-${system.id}`;
  return (
    <form
      class="action-form"
      aria-label={`Preview ${system.name} for a subject`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit.run(async () =>
          setResult(
            await api<DataSystemPreview>('POST', `${systemPath(system.id)}/preview`, {
              body: {
                subject_provider: provider.trim(),
                subject_id: subjectId.trim(),
                request_type: requestType,
              } satisfies DataSystemPreviewBody,
            }),
          ),
        );
      }}
    >
      <Field id={`${id}-provider`} label="Subject provider">
        {(a11y) => <input {...a11y} value={provider} required onInput={(e) => setProvider(e.currentTarget.value)} />}
      </Field>
      <Field id={`${id}-subject`} label="Subject id">
        {(a11y) => <input {...a11y} value={subjectId} required onInput={(e) => setSubjectId(e.currentTarget.value)} />}
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
        Preview statements
      </button>
      <ErrorText error={submit.error} />
      {result && <PreviewResult result={result} />}
    </form>
  );
}

function DatabaseDetails({ system }: { system: DataSystem }) {
  const [test, setTest] = useState<DataSystemTest | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const testing = useSubmit();
  const dataset = system.dataset;
  return (
    <>
      {dataset && (
        <dl class="summary">
          <dt>Dataset</dt>
          <dd>
            <code>{dataset.fides_key}</code>
          </dd>
          <dt>Collections</dt>
          <dd>{dataset.collections.join(', ')}</dd>
          <dt>Identities</dt>
          <dd>{dataset.identities.join(', ')}</dd>
          <dt>Categories</dt>
          <dd>{dataset.categories.join(', ')}</dd>
        </dl>
      )}
      <div class="buttons">
        <button
          type="button"
          class="secondary"
          disabled={testing.busy}
          onClick={() =>
            void testing.run(async () => setTest(await api<DataSystemTest>('POST', `${systemPath(system.id)}/test`)))
          }
        >
          Test connection
        </button>
        <button type="button" class="secondary" aria-expanded={previewing} onClick={() => setPreviewing(!previewing)}>
          Preview for a subject
        </button>
      </div>
      <ErrorText error={testing.error} />
      {test && <TestResult result={test} />}
      {previewing && <PreviewForm system={system} />}
    </>
  );
}

function SystemItem({ system }: { system: DataSystem }) {
  const database = system.kind === 'postgres' || system.kind === 'mysql';
  return (
    <li class="endpoint">
      <p>
        <strong>{system.name}</strong> (<code>{system.key}</code>) in {system.workspace_id}:{' '}
        <strong>{KIND_NAMES[system.kind]}</strong>; {system.categories.join(', ')} for {system.request_types.join(', ')}
        {system.due_days ? `, due within ${system.due_days} days` : ''};{' '}
        {database
          ? 'the service runs its tasks itself'
          : system.endpoint_id
            ? `tasks go to endpoint ${system.endpoint_id}`
            : 'manual: an operator marks its tasks done'}
      </p>
      {database && <DatabaseDetails system={system} />}
    </li>
  );
}

/** The workspace's data systems (every workspace of the token when `workspace` is empty). */
export function DataSystems({ workspace }: { workspace: string }) {
  const [list, setList] = useState<DataSystemList | null>(null);
  const load = useSubmit();
  useEffect(() => {
    void load.run(async () =>
      setList(await api<DataSystemList>('GET', `/api/v1/data-systems${queryString({ workspace_id: workspace })}`)),
    );
  }, [workspace]);
  return (
    <Section title="Data systems">
      <ErrorText error={load.error} />
      {list && list.items.length === 0 && <p>No data system yet (privacyctl system add, or POST /api/v1/data-systems).</p>}
      {list && list.items.length > 0 && (
        <ul class="plain">
          {list.items.map((system) => (
            <SystemItem system={system} key={system.id} />
          ))}
        </ul>
      )}
    </Section>
  );
}
