// Filing a request (POST /api/v1/privacy/requests): validated as the API does (PRODUCT.md §2.3),
// one Idempotency-Key per filing: a retry or a double click of the same filing is answered once.
import { useState } from 'preact/hooks';
import { ApiError, call } from '../api/client';
import type { NewRequest, RequestType } from '../api/types';
import { REQUEST_TYPES, SCOPE_KEYS } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { categoryName, categoryNames, useCategories } from '../lib/categories';
import { newIdempotencyKey } from '../lib/keys';
import { requestHref } from '../lib/router';

interface Draft {
  request_type: RequestType;
  scope: string[];
  subject_provider: string;
  subject_id: string;
  workspace_id: string;
  client_request_id: string;
  intake_ref: string;
  /** `YYYY-MM-DD` from the date field, or '' for "received now". */
  received_on: string;
}

/** The day (local midnight) a `YYYY-MM-DD` names, as RFC 3339; undefined for ''. */
export function receivedAt(day: string): string | undefined {
  return day === '' ? undefined : new Date(`${day}T00:00:00`).toISOString();
}

function receivedProblems(day: string, now = new Date()): string[] {
  const at = receivedAt(day);
  if (at === undefined) return [];
  if (Number.isNaN(Date.parse(at))) return ['Enter a date'];
  if (Date.parse(at) > now.getTime()) return ['The day it was received cannot be in the future'];
  if (Date.parse(at) < now.getTime() - 365 * 86_400_000) return ['At most 365 days ago'];
  return [];
}

const length = (value: string) => [...value].length;

function between(value: string, min: number, max: number): string[] {
  const n = length(value);
  if (n < min) return [min === 1 ? 'Field required' : `String should have at least ${min} characters`];
  if (n > max) return [`String should have at most ${max} characters`];
  return [];
}

/** The API's rules (PRODUCT.md §2.3), field by field. */
export function validateDraft(draft: Draft): Record<string, string[]> {
  return {
    scope: draft.scope.length === 0 ? ['Choose at least one data category'] : [],
    subject_provider: between(draft.subject_provider, 1, 100),
    subject_id: between(draft.subject_id, 1, 300),
    workspace_id: between(draft.workspace_id, 1, 200),
    client_request_id: between(draft.client_request_id, 8, 200),
    intake_ref: between(draft.intake_ref, 1, 1100),
    received_at: receivedProblems(draft.received_on),
  };
}

const emptyDraft = (workspace: string): Draft => ({
  request_type: 'access',
  scope: ['user'],
  subject_provider: '',
  subject_id: '',
  workspace_id: workspace,
  client_request_id: `console-${newIdempotencyKey()}`,
  intake_ref: '',
  received_on: '',
});

const TEXT_FIELDS: { key: keyof Draft & string; label: string; hint?: string; max: number }[] = [
  { key: 'workspace_id', label: 'Workspace', max: 200 },
  { key: 'subject_provider', label: 'Subject provider', hint: 'Where the subject id comes from, e.g. github or clerk', max: 100 },
  { key: 'subject_id', label: 'Subject id', max: 300 },
  { key: 'client_request_id', label: 'Your reference', hint: '8–200 characters, unique in the workspace', max: 200 },
  { key: 'intake_ref', label: 'Intake reference', hint: 'Where the request came in, e.g. a ticket URL', max: 1100 },
];

export function NewRequestForm(props: { defaultWorkspace: string; onFiled: () => void }) {
  const [draft, setDraft] = useState(() => emptyDraft(props.defaultWorkspace));
  const [key, setKey] = useState(newIdempotencyKey);
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const [filed, setFiled] = useState<{ id: string; replayed: boolean } | null>(null);
  const submit = useSubmit();
  const names = categoryNames(useCategories());
  const set = <K extends keyof Draft>(name: K, value: Draft[K]) => setDraft({ ...draft, [name]: value });

  const onSubmit = (event: Event) => {
    event.preventDefault();
    const problems = validateDraft(draft);
    setLocal(problems);
    if (Object.values(problems).some((list) => list.length)) return;
    void submit.run(async () => {
      const { received_on, ...fields } = draft;
      const received = receivedAt(received_on);
      const body: NewRequest = {
        ...fields,
        scope: draft.scope as NewRequest['scope'],
        ...(received === undefined ? {} : { received_at: received }),
      };
      let response: Response;
      try {
        response = await call('POST', '/api/v1/privacy/requests', { body, headers: { 'idempotency-key': key } });
      } catch (error) {
        // Refused for its content (422, 403): nothing was filed, so a corrected filing gets a new key.
        // A lost answer, a 409 (still in flight) or a 5xx keeps the key: sending again is answered once.
        if (error instanceof ApiError && (error.status === 422 || error.status === 403)) setKey(newIdempotencyKey());
        throw error;
      }
      const created = (await response.json()) as { id: string };
      setFiled({ id: created.id, replayed: response.headers.get('idempotent-replayed') === 'true' });
      // The filing is done: the next one is a new filing with its own key.
      setKey(newIdempotencyKey());
      setDraft(emptyDraft(draft.workspace_id));
      props.onFiled();
    });
  };

  return (
    <details class="card">
      <summary>File a new request</summary>
      <form onSubmit={onSubmit} noValidate>
        <Field id="new-type" label="Type" errors={fieldErrors(submit.error, 'request_type')}>
          {(a11y) => (
            <select
              {...a11y}
              value={draft.request_type}
              onChange={(e) => set('request_type', e.currentTarget.value as RequestType)}
            >
              {REQUEST_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset aria-describedby={local.scope?.length ? 'new-scope-error' : undefined}>
          <legend>Data categories (scope)</legend>
          {SCOPE_KEYS.map((scope) => (
            <div class="checkbox" key={scope}>
              <input
                type="checkbox"
                id={`new-scope-${scope}`}
                checked={draft.scope.includes(scope)}
                onChange={(e) =>
                  set('scope', e.currentTarget.checked ? [...draft.scope, scope] : draft.scope.filter((item) => item !== scope))
                }
              />
              <label for={`new-scope-${scope}`}>
                {categoryName(names, scope)} <span class="muted">({scope})</span>
              </label>
            </div>
          ))}
          {fieldErrors(submit.error, 'scope', local.scope).length > 0 && (
            <p class="field-error" id="new-scope-error">
              {fieldErrors(submit.error, 'scope', local.scope).join(' ')}
            </p>
          )}
        </fieldset>
        {TEXT_FIELDS.map((field) => (
          <Field
            key={field.key}
            id={`new-${field.key}`}
            label={field.label}
            hint={field.hint}
            errors={fieldErrors(submit.error, field.key, local[field.key])}
          >
            {(a11y) => (
              <input {...a11y} value={draft[field.key] as string} onInput={(e) => set(field.key, e.currentTarget.value)} />
            )}
          </Field>
        ))}
        <Field
          id="new-received_at"
          label="Received on"
          hint="Leave empty for today; for a letter that came by post or an older ticket, the day it arrived: deadlines count from it"
          errors={fieldErrors(submit.error, 'received_at', local.received_at)}
        >
          {(a11y) => (
            <input {...a11y} type="date" value={draft.received_on} onInput={(e) => set('received_on', e.currentTarget.value)} />
          )}
        </Field>
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Filing…' : 'File request'}
        </button>
        <ErrorText error={submit.error} />
        {filed && (
          <p role="status" class="notice">
            Filed <a href={requestHref(filed.id)}>{filed.id}</a>
            {filed.replayed ? ' (the service had it already: same answer as before)' : ''}.
          </p>
        )}
      </form>
    </details>
  );
}
