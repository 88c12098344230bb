// One action with one reason for the selected requests (PRODUCT §2.16, §2.21): first a preview of
// what it will do to each (the new binding due date of an extension, or why a request will be
// refused), then, confirmed, the API's result per request (each done on its own), with the due
// date each request now has.
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { BulkBody, BulkResults, PrivacyRequest } from '../api/types';
import { useWhoAmI } from '../api/whoami';
import { ErrorText, Field, useSubmit } from '../components/forms';
import { type BulkAction, type Planned, planBulk } from '../lib/bulk-plan';
import { bindingDue, formatTime, isFinal, statusLabel } from '../lib/deadline';
import { requestHref } from '../lib/router';

const BULK_LABELS: Record<BulkAction, string> = {
  approve: 'Approve',
  reject: 'Reject',
  cancel: 'Cancel',
  extend: 'Extend deadline',
  assign: 'Assign to me',
};

function PreviewTable({ planned, action }: { planned: Planned[]; action: BulkAction }) {
  return (
    <div role="region" aria-label="What will happen">
      <table class="queue bulk-preview">
        <caption>{BULK_LABELS[action]}: what will happen to each request</caption>
        <thead>
          <tr>
            <th scope="col">Request</th>
            <th scope="col">Then</th>
            <th scope="col">{action === 'extend' ? 'New due date' : 'Note'}</th>
          </tr>
        </thead>
        <tbody>
          {planned.map((p) => (
            <tr key={p.id} class={p.becomes === null ? 'refused' : undefined}>
              <td class="request-id" data-label="Request">
                {p.id}
              </td>
              <td data-label="Then">{p.becomes === null ? 'refused' : statusLabel(p.becomes)}</td>
              <td data-label={action === 'extend' ? 'New due date' : 'Note'}>{p.note || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Result = BulkResults['results'][number] & { due?: string | undefined };

/** A result whose request has ended: no due date to show. */
const isFinalResult = (r: BulkResults['results'][number]) => typeof r.status === 'string' && isFinal(r.status);
const dueOf = (r: PrivacyRequest | undefined) => (r && !isFinal(r.status) ? bindingDue(r) : undefined);

function ResultList({ results }: { results: Result[] }) {
  return (
    <div role="status" aria-label="Results">
      <ul class="bulk-results">
        {results.map((r) => (
          <li key={r.id} class={typeof r.status === 'number' ? 'field-error' : undefined}>
            <a href={requestHref(r.id)} class="request-id">
              {r.id}
            </a>
            : {typeof r.status === 'number' ? `refused (${r.status}): ${r.error ?? ''}` : statusLabel(r.status)}
            {r.due ? `, due ${formatTime(r.due)}` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The bulk form; `onDone` gets the requests as they are after the action. */
export function BulkActions(props: {
  requests: PrivacyRequest[];
  onDone: (updated: PrivacyRequest[]) => void;
  onClear: () => void;
}) {
  const me = useWhoAmI();
  const [action, setAction] = useState<BulkAction>('assign');
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<string[]>([]);
  const [planned, setPlanned] = useState<Planned[] | null>(null);
  const [results, setResults] = useState<Result[]>([]);
  const submit = useSubmit();
  const n = props.requests.length;
  const needsReason = action === 'reject' || action === 'cancel' || action === 'extend';
  const change = (fn: () => void) => {
    fn();
    setPlanned(null);
  };
  const preview = (event: Event) => {
    event.preventDefault();
    if (needsReason && !reason.trim()) return setLocal(['Give a reason: it is recorded for every request.']);
    setLocal([]);
    setResults([]);
    setPlanned(planBulk(action, props.requests, me?.name ?? 'you'));
  };
  const confirm = () =>
    void submit.run(async () => {
      const trimmed = reason.trim();
      const ids = props.requests.map((r) => r.id);
      const body: BulkBody = {
        action,
        ids,
        ...(trimmed ? { reason: trimmed } : {}),
        ...(action === 'assign' ? { assignee: me?.name ?? null } : {}),
      };
      const answer = await api<BulkResults>('POST', '/api/v1/privacy/requests/bulk', { body });
      // Each request as it is now: its binding due date after the action.
      const now = await Promise.all(
        ids.map((id) => api<PrivacyRequest>('GET', `/api/v1/privacy/requests/${encodeURIComponent(id)}`)),
      );
      const byId = new Map(now.map((r) => [r.id, r]));
      setResults(answer.results.map((r) => ({ ...r, due: isFinalResult(r) ? undefined : dueOf(byId.get(r.id)) })));
      setPlanned(null);
      props.onDone(now);
    });
  return (
    <form class="card bulk" aria-label="Act on the selected requests" onSubmit={preview} noValidate>
      <h2>
        {n} request{n === 1 ? '' : 's'} selected
      </h2>
      <Field id="bulk-action" label="Action">
        {(a11y) => (
          <select {...a11y} value={action} onChange={(e) => change(() => setAction(e.currentTarget.value as BulkAction))}>
            {(Object.keys(BULK_LABELS) as BulkAction[]).map((a) => (
              <option key={a} value={a}>
                {BULK_LABELS[a]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        id="bulk-reason"
        label={`Reason${needsReason ? '' : ' (optional)'}, recorded for each request${action === 'reject' || action === 'extend' ? ' and told to the person' : ''}; no personal data`}
        errors={local}
      >
        {(a11y) => (
          <textarea
            {...a11y}
            rows={2}
            maxLength={1000}
            value={reason}
            onInput={(e) => change(() => setReason(e.currentTarget.value))}
          />
        )}
      </Field>
      <div class="buttons">
        <button type="submit" class={planned ? 'secondary' : undefined}>
          Preview: {BULK_LABELS[action].toLowerCase()}
        </button>
        <button type="button" class="secondary" onClick={props.onClear}>
          Clear selection
        </button>
      </div>
      {planned && <PreviewTable planned={planned} action={action} />}
      {planned && (
        <div class="buttons">
          <button type="button" disabled={submit.busy} onClick={confirm}>
            {submit.busy ? 'Sending…' : `Confirm: ${BULK_LABELS[action].toLowerCase()}, ${n} request${n === 1 ? '' : 's'}`}
          </button>
        </div>
      )}
      <ErrorText error={submit.error} />
      {results.length > 0 && <ResultList results={results} />}
    </form>
  );
}
