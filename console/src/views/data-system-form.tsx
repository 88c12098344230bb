// Registering and editing a data system (PRODUCT §2.9, §2.14, §2.21): every kind. A database gets
// its connection (write-only: sent, never shown back) and its Fides dataset (pasted or read from a
// YAML/JSON file); the API's 422 items show at their fields, a dataset's at its line in the text.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api/client';
import {
  type DataSystem,
  type DataSystemChange,
  type DataSystemKind,
  type NewDataSystem,
  REQUEST_TYPES,
  type RequestType,
} from '../api/types';
import { CheckboxGroup } from '../components/choices';
import { Field, fieldErrors, FormErrors, useSubmit } from '../components/forms';
import { categoryLabel, categoryNames, useCategories } from '../lib/categories';
import { declaredBody, declaredProblems, PROCESSING_FIELDS, textsOf } from '../lib/declared-processing';
import { DeclaredFields, type DeclaredText } from './declared-processing';
import { DatasetField, type DatasetState } from './dataset-field';
import { EndpointPicker, KindPicker, KIND_NAMES, isDatabase, WorkspacePicker } from './data-system-pickers';

interface Draft {
  workspace_id: string;
  kind: DataSystemKind;
  key: string;
  name: string;
  categories: string[];
  request_types: RequestType[];
  endpoint_id: string;
  due_days: string;
  connection: string;
  dataset: DatasetState;
  declared: DeclaredText;
  third_party: boolean;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** The body fields the form shows a 422 item at; any other item shows below the form. */
const PLACED = [
  'workspace_id',
  'key',
  'name',
  'endpoint_id',
  'connection',
  'dataset',
  'request_types',
  'categories',
  'due_days',
  ...PROCESSING_FIELDS,
];

function draftOf(system: DataSystem | null, workspace: string): Draft {
  return {
    workspace_id: system?.workspace_id ?? workspace,
    kind: system?.kind ?? 'manual',
    key: system?.key ?? '',
    name: system?.name ?? '',
    categories: system ? [...system.categories] : [],
    request_types: system ? (system.request_types as RequestType[]) : [...REQUEST_TYPES],
    endpoint_id: system?.endpoint_id ?? '',
    due_days: system?.due_days ? String(system.due_days) : '',
    connection: '',
    dataset: { text: '', fileName: null },
    declared: textsOf(system),
    third_party: system?.third_party ?? false,
  };
}

/** What the form checks before sending (the API checks the rest); by field. */
function localProblems(d: Draft, editing: boolean): Record<string, string[]> {
  const p: Record<string, string[]> = {};
  if (!editing && !d.workspace_id.trim()) p.workspace_id = ['Choose the workspace'];
  if (!editing && !KEY_PATTERN.test(d.key)) p.key = ['Lower-case letters, digits and hyphens, starting with a letter or digit'];
  if (!d.name.trim()) p.name = ['Give the system a name'];
  if (d.due_days.trim() && !/^[1-9][0-9]{0,3}$/.test(d.due_days.trim())) p.due_days = ['A whole number of days, 1 to 3650'];
  if (d.request_types.length === 0) p.request_types = ['Choose at least one request type'];
  if (!isDatabase(d.kind) && d.categories.length === 0) p.categories = ['Choose the data categories it holds'];
  if (d.kind === 'webhook' && !d.endpoint_id) p.endpoint_id = ['Choose the endpoint its tasks are sent to'];
  if (isDatabase(d.kind) && !editing && !d.connection.trim()) p.connection = ['Give the connection URL'];
  if (isDatabase(d.kind) && !editing && !d.dataset.text.trim()) p.dataset = ['Paste the dataset or read it from a file'];
  for (const field of PROCESSING_FIELDS) {
    const problems = declaredProblems(d.declared[field]);
    if (problems.length) p[field] = problems;
  }
  return p;
}

/** The body of a registration (POST) or a change (PATCH): only what the kind takes. */
function bodyOf(d: Draft, before: DataSystem | null): NewDataSystem | DataSystemChange {
  const editing = before !== null;
  const db = isDatabase(d.kind);
  const common = {
    ...declaredBody(d.declared, before),
    name: d.name.trim(),
    request_types: d.request_types,
    ...(d.categories.length ? { categories: d.categories as NewDataSystem['categories'] } : {}),
    ...(d.connection.trim() ? { connection: { url: d.connection.trim() } } : {}),
    ...(d.dataset.text.trim() ? { dataset: d.dataset.text } : {}),
  };
  const dueDays = d.due_days.trim() ? Number(d.due_days) : null;
  if (editing)
    return {
      ...common,
      due_days: dueDays,
      third_party: d.third_party,
      ...(db ? {} : { endpoint_id: d.kind === 'webhook' ? d.endpoint_id : null }),
    };
  return {
    ...common,
    workspace_id: d.workspace_id.trim(),
    key: d.key,
    kind: d.kind,
    ...(dueDays ? { due_days: dueDays } : {}),
    ...(d.third_party ? { third_party: true } : {}),
    ...(d.kind === 'webhook' ? { endpoint_id: d.endpoint_id } : {}),
  };
}

/** What registering or saving will do, in words, before it is done. */
function Consequence({ d, names }: { d: Draft; names: ReadonlyMap<string, string> }) {
  const types = d.request_types.join(', ') || 'no request type';
  const what = isDatabase(d.kind)
    ? 'the service itself reads the person’s rows for access and export, masks or deletes them for deletion, and updates them for correction, in this database'
    : d.kind === 'webhook'
      ? 'a task is sent to the chosen endpoint, which reports its result'
      : 'a task waits here until an operator marks it done';
  const over = isDatabase(d.kind)
    ? d.categories.length
      ? d.categories.map((c) => categoryLabel(names, c)).join(', ')
      : 'the categories its dataset labels'
    : d.categories.map((c) => categoryLabel(names, c)).join(', ') || 'no category yet';
  return (
    <p class="notice" aria-live="polite">
      For every new {types} request covering {over}: {what}
      {d.due_days.trim() ? `, due within ${d.due_days.trim()} days or the request’s deadline, the earlier` : ''}. Requests already
      filed keep their tasks.
    </p>
  );
}

/** Register (no `system`) or edit a data system; `onSaved` gets the system as the API answered it. */
export function DataSystemForm(props: {
  system: DataSystem | null;
  workspace: string;
  onSaved: (system: DataSystem) => void;
  onClose: () => void;
}) {
  const editing = props.system !== null;
  const [d, setDraft] = useState<Draft>(() => draftOf(props.system, props.workspace));
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const submit = useSubmit();
  const categories = useCategories();
  const names = categoryNames(categories);
  const set = <K extends keyof Draft>(name: K, value: Draft[K]) => setDraft((old) => ({ ...old, [name]: value }));
  const errors = (field: string) => fieldErrors(submit.error, field, local[field]);
  const id = props.system ? `system-${props.system.id}` : 'new-system';
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const problems = localProblems(d, editing);
    setLocal(problems);
    if (Object.keys(problems).length) return;
    void submit.run(async () => {
      const body = bodyOf(d, props.system);
      const saved = props.system
        ? await api<DataSystem>('PATCH', `/api/v1/data-systems/${encodeURIComponent(props.system.id)}`, { body })
        : await api<DataSystem>('POST', '/api/v1/data-systems', { body });
      props.onSaved(saved);
    });
  };
  return (
    <form
      class="action-form"
      aria-label={editing ? `Edit ${props.system?.name}` : 'Register a data system'}
      noValidate
      onSubmit={onSubmit}
    >
      {!editing && (
        <WorkspacePicker
          id={`${id}-workspace`}
          value={d.workspace_id}
          onChange={(v) => set('workspace_id', v)}
          errors={errors('workspace_id')}
        />
      )}
      {!editing && <KindPicker id={`${id}-kind`} value={d.kind} onChange={(v) => set('kind', v)} />}
      {editing && (
        <p>
          <strong>{KIND_NAMES[d.kind]}</strong> <code>{props.system?.key}</code> in {d.workspace_id} (kind and key stay as
          registered).
        </p>
      )}
      {!editing && (
        <Field
          id={`${id}-key`}
          label="Key"
          hint="Names the system in tasks and packages; lower-case, e.g. crm or shop-db"
          errors={errors('key')}
        >
          {(a11y) => <input {...a11y} value={d.key} maxLength={63} onInput={(e) => set('key', e.currentTarget.value)} />}
        </Field>
      )}
      <Field id={`${id}-name`} label="Name" errors={errors('name')}>
        {(a11y) => <input {...a11y} value={d.name} maxLength={200} onInput={(e) => set('name', e.currentTarget.value)} />}
      </Field>
      {d.kind === 'webhook' && (
        <EndpointPicker
          id={`${id}-endpoint`}
          workspace={d.workspace_id}
          value={d.endpoint_id}
          onChange={(v) => set('endpoint_id', v)}
          errors={errors('endpoint_id')}
        />
      )}
      {isDatabase(d.kind) && (
        <Field
          id={`${id}-connection`}
          label={editing ? 'New connection URL (empty: keep the current one)' : 'Connection URL'}
          hint={`Write-only: stored encrypted and never shown again, here or anywhere. ${d.kind === 'postgres' ? 'postgres://user:password@host:5432/database' : 'mysql://user:password@host:3306/database'}; the host must be allowed by CONNECTOR_ALLOWED_HOSTS.`}
          errors={errors('connection')}
        >
          {(a11y) => (
            <input
              {...a11y}
              type="password"
              autoComplete="off"
              spellcheck={false}
              value={d.connection}
              onInput={(e) => set('connection', e.currentTarget.value)}
            />
          )}
        </Field>
      )}
      {isDatabase(d.kind) && (
        <DatasetField
          id={`${id}-dataset`}
          editing={editing}
          state={d.dataset}
          onChange={(v) => set('dataset', v)}
          error={submit.error}
          local={local.dataset ?? []}
        />
      )}
      <CheckboxGroup
        id={`${id}-request-types`}
        legend="Request types it takes part in"
        options={REQUEST_TYPES.map((t) => ({ value: t, label: t }))}
        selected={d.request_types}
        onChange={(v) => set('request_types', v as RequestType[])}
        errors={errors('request_types')}
      />
      <CheckboxGroup
        id={`${id}-categories`}
        legend={
          isDatabase(d.kind) ? 'Data categories (optional: empty takes those its dataset labels)' : 'Data categories it holds'
        }
        options={(categories.length ? categories.filter((c) => c.scope).map((c) => c.fides_key) : d.categories).map((key) => ({
          value: key,
          label: categoryLabel(names, key),
        }))}
        selected={d.categories}
        onChange={(v) => set('categories', v)}
        errors={errors('categories')}
        scroll
      />
      <Field
        id={`${id}-due`}
        label="Days a task has (optional)"
        hint="Empty: the request’s own deadline"
        errors={errors('due_days')}
      >
        {(a11y) => (
          <input {...a11y} inputMode="numeric" value={d.due_days} onInput={(e) => set('due_days', e.currentTarget.value)} />
        )}
      </Field>
      <DeclaredFields
        id={id}
        text={d.declared}
        thirdParty={d.third_party}
        onText={(field, value) => setDraft((old) => ({ ...old, declared: { ...old.declared, [field]: value } }))}
        onThirdParty={(value) => set('third_party', value)}
        items={submit.error instanceof ApiError ? submit.error.items : []}
        local={local}
      />
      <Consequence d={d} names={names} />
      <div class="buttons">
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Saving…' : editing ? 'Save changes' : 'Register the system'}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
      <FormErrors error={submit.error} placed={PLACED} />
    </form>
  );
}
