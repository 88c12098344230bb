// The officer's day on the queue (PRODUCT.md §2.16): the counts on top, one action with one
// reason for the selected rows (each done on its own by the API), and the CSV download.
import { useEffect, useState } from 'preact/hooks';
import { api, call, queryString } from '../api/client';
import type { BulkBody, BulkResults, QueueStats } from '../api/types';
import { useWhoAmI } from '../api/whoami';
import { ErrorText, Field, useSubmit } from '../components/forms';
import { statusLabel } from '../lib/deadline';

const COUNTS: [keyof QueueStats, string][] = [
  ['open', 'Open'],
  ['overdue', 'Overdue'],
  ['due_within_7_days', 'Due within 7 days'],
  ['pending_approval', 'Pending approval'],
  ['action_required', 'Action required'],
  ['unassigned_open', 'Open, unassigned'],
];

/** The queue's counts (GET …/stats) over the workspaces shown. */
export function QueueCounts(props: { workspaces: readonly string[] | undefined; version: number }) {
  const [stats, setStats] = useState<QueueStats | null>(null);
  const load = useSubmit();
  const key = (props.workspaces ?? []).join(',');
  useEffect(() => {
    void load.run(async () =>
      setStats(await api<QueueStats>('GET', `/api/v1/privacy/requests/stats${queryString({ workspace_id: props.workspaces })}`)),
    );
  }, [key, props.version]);
  return (
    <section aria-label="Queue counts" class="counts">
      <ErrorText error={load.error} />
      {stats && (
        <ul>
          {COUNTS.map(([field, label]) => (
            <li
              key={field}
              class={
                field === 'overdue' && stats.overdue > 0
                  ? 'count count-overdue'
                  : field === 'due_within_7_days' && stats.due_within_7_days > 0
                    ? 'count count-soon'
                    : 'count'
              }
            >
              <span class="count-value">{stats[field]}</span> <span class="count-label">{label}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Fetches the list as CSV (the token goes in the header, so no plain link) and saves it. */
export async function downloadCsv(query: string): Promise<void> {
  const separator = query ? '&' : '?';
  const response = await call('GET', `/api/v1/privacy/requests${query}${separator}format=csv`, { accept: 'text/csv' });
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `privacy-requests-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type BulkAction = BulkBody['action'];
const BULK_LABELS: Record<BulkAction, string> = {
  approve: 'Approve',
  reject: 'Reject',
  cancel: 'Cancel',
  extend: 'Extend deadline',
  assign: 'Assign to me',
};

/** One action, one reason, for the selected requests; each result shown by request. */
export function BulkActions(props: { ids: string[]; onDone: () => void; onClear: () => void }) {
  const me = useWhoAmI();
  const [action, setAction] = useState<BulkAction>('assign');
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<string[]>([]);
  const [results, setResults] = useState<BulkResults['results']>([]);
  const submit = useSubmit();
  const needsReason = action === 'reject' || action === 'cancel' || action === 'extend';
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (needsReason && trimmed.length === 0) return setLocal(['Give a reason: it is recorded for every request.']);
    setLocal([]);
    void submit.run(async () => {
      const body: BulkBody = {
        action,
        ids: props.ids,
        ...(trimmed ? { reason: trimmed } : {}),
        ...(action === 'assign' ? { assignee: me?.name ?? null } : {}),
      };
      const answer = await api<BulkResults>('POST', '/api/v1/privacy/requests/bulk', { body });
      setResults(answer.results);
      props.onDone();
    });
  };
  return (
    <form class="card bulk" aria-label="Act on the selected requests" onSubmit={onSubmit} noValidate>
      <h2>
        {props.ids.length} request{props.ids.length === 1 ? '' : 's'} selected
      </h2>
      <Field id="bulk-action" label="Action">
        {(a11y) => (
          <select {...a11y} value={action} onChange={(e) => setAction(e.currentTarget.value as BulkAction)}>
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
        label={`Reason${needsReason ? '' : ' (optional)'}, recorded for each request; no personal data`}
        errors={local}
      >
        {(a11y) => (
          <textarea {...a11y} rows={2} maxLength={1000} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        )}
      </Field>
      <div class="buttons">
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Sending…' : `${BULK_LABELS[action]}: ${props.ids.length} request${props.ids.length === 1 ? '' : 's'}`}
        </button>
        <button type="button" class="secondary" onClick={props.onClear}>
          Clear selection
        </button>
      </div>
      <ErrorText error={submit.error} />
      {results.length > 0 && (
        <div role="status" aria-label="Results">
          <ul class="bulk-results">
            {results.map((r) => (
              <li key={r.id} class={typeof r.status === 'number' ? 'field-error' : undefined}>
                {r.id}: {typeof r.status === 'number' ? `refused (${r.status}): ${r.error ?? ''}` : statusLabel(r.status)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}
