// Data systems on the Connections page (PRODUCT §2.9, §2.14, §2.21), scope admin: each system with
// its kind (and a database's dataset summary, never its connection), its last tasks and what they
// did, and what it declares of its processing (PRODUCT §2.17: what the person reads in the letter);
// register one of any kind, edit or remove it; for a database, Test and Preview for a person.
import { useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { DataSystem, DataSystemList, DataSystemTest } from '../api/types';
import { ErrorText, Section, useSubmit } from '../components/forms';
import { useLoad } from '../components/use-load';
import { categoryName, categoryNames, useCategories } from '../lib/categories';
import { PreviewForm, systemPath, TestResult } from './data-system-checks';
import { DataSystemForm } from './data-system-form';
import { DeclaredSummary } from './declared-processing';
import { isDatabase, KIND_NAMES } from './data-system-pickers';
import { SystemTasks } from './data-system-tasks';

function DatasetSummary({ system }: { system: DataSystem }) {
  const dataset = system.dataset;
  if (!dataset) return null;
  return (
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
  );
}

/** Remove, after saying what it does. */
function RemoveSystem({ system, onRemoved }: { system: DataSystem; onRemoved: () => void }) {
  const [asking, setAsking] = useState(false);
  const submit = useSubmit();
  if (!asking)
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Remove…
      </button>
    );
  return (
    <div class="action-form" role="group" aria-label={`Remove ${system.name}`}>
      <p>
        New requests will create no task for <strong>{system.name}</strong>; its open tasks stay until they are answered.
        {isDatabase(system.kind) ? ' Its stored connection is deleted.' : ''}
      </p>
      <div class="buttons">
        <button
          type="button"
          class="danger"
          disabled={submit.busy}
          onClick={() =>
            void submit.run(async () => {
              await api('DELETE', systemPath(system.id));
              onRemoved();
            })
          }
        >
          Confirm: remove {system.name}
        </button>
        <button type="button" class="secondary" onClick={() => setAsking(false)}>
          Keep it
        </button>
      </div>
      <ErrorText error={submit.error} />
    </div>
  );
}

function SystemItem(props: { system: DataSystem; names: ReadonlyMap<string, string>; onChanged: () => void }) {
  const { system } = props;
  const [open, setOpen] = useState<'edit' | 'preview' | null>(null);
  const [test, setTest] = useState<DataSystemTest | null>(null);
  const testing = useSubmit();
  const database = isDatabase(system.kind);
  const toggle = (what: 'edit' | 'preview') => setOpen(open === what ? null : what);
  return (
    <li class="endpoint system">
      <h3>
        {system.name} <code>{system.key}</code>
      </h3>
      <p>
        <strong>{KIND_NAMES[system.kind]}</strong> in {system.workspace_id}:{' '}
        {system.categories.map((c) => categoryName(props.names, c)).join(', ')} for {system.request_types.join(', ')}
        {system.due_days ? `, due within ${system.due_days} days` : ''};{' '}
        {database
          ? 'the service runs its tasks itself'
          : system.endpoint_id
            ? `tasks go to endpoint ${system.endpoint_id}`
            : 'an operator marks its tasks done'}
        .
      </p>
      <DatasetSummary system={system} />
      <DeclaredSummary system={system} />
      <div class="buttons">
        {database && (
          <button
            type="button"
            class="secondary"
            disabled={testing.busy}
            onClick={() =>
              void testing.run(async () => setTest(await api<DataSystemTest>('POST', `${systemPath(system.id)}/test`)))
            }
          >
            {testing.busy ? 'Testing…' : 'Test connection'}
          </button>
        )}
        {database && (
          <button type="button" class="secondary" aria-expanded={open === 'preview'} onClick={() => toggle('preview')}>
            Preview for a person
          </button>
        )}
        <button type="button" class="secondary" aria-expanded={open === 'edit'} onClick={() => toggle('edit')}>
          Edit
        </button>
        <RemoveSystem system={system} onRemoved={props.onChanged} />
      </div>
      <ErrorText error={testing.error} />
      {test && <TestResult result={test} />}
      {open === 'preview' && <PreviewForm system={system} />}
      {open === 'edit' && (
        <DataSystemForm
          system={system}
          workspace={system.workspace_id}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            props.onChanged();
          }}
        />
      )}
      <SystemTasks system={system} version={0} />
    </li>
  );
}

/** The workspace's data systems (every workspace of the token when `workspace` is empty). */
export function DataSystems({ workspace }: { workspace: string }) {
  const [list, setList] = useState<DataSystemList | null>(null);
  const [version, setVersion] = useState(0);
  const [registering, setRegistering] = useState(false);
  const [done, setDone] = useState('');
  const names = categoryNames(useCategories());
  const load = useLoad(
    async (isCurrent) => {
      const loaded = await api<DataSystemList>('GET', `/api/v1/data-systems${queryString({ workspace_id: workspace })}`);
      if (isCurrent()) setList(loaded);
    },
    [workspace, version],
  );
  return (
    <Section title="Data systems">
      <p class="hint">
        Every system that holds personal data for a workspace: each request creates a task per system whose request types and
        categories it covers, and the request ends only when every task is answered.
      </p>
      <ErrorText error={load.error} />
      <div class="buttons">
        <button
          type="button"
          aria-expanded={registering}
          onClick={() => {
            setDone('');
            setRegistering(!registering);
          }}
        >
          Register a data system
        </button>
      </div>
      {registering && (
        <DataSystemForm
          system={null}
          workspace={workspace}
          onClose={() => setRegistering(false)}
          onSaved={(saved) => {
            setRegistering(false);
            setDone(
              `Registered ${saved.name} (${saved.key}).${isDatabase(saved.kind) ? ' Test its connection below before the next request reaches it.' : ''}`,
            );
            setVersion((n) => n + 1);
          }}
        />
      )}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
      {list && list.items.length === 0 && <p>No data system yet.</p>}
      {list && list.items.length > 0 && (
        <ul class="plain">
          {list.items.map((system) => (
            <SystemItem
              system={system}
              key={`${system.id}-${system.updated_at}`}
              names={names}
              onChanged={() => {
                setDone('');
                setVersion((n) => n + 1);
              }}
            />
          ))}
        </ul>
      )}
    </Section>
  );
}
