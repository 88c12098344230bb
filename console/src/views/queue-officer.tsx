// The officer's day on the queue (PRODUCT.md §2.16, §2.21): the counts on top, each a link to the
// filter that lists what it counts, and the CSV download (the bulk form is queue-bulk.tsx).
import { useEffect, useState } from 'preact/hooks';
import { api, call, queryString } from '../api/client';
import type { QueueStats } from '../api/types';
import { ErrorText, useSubmit } from '../components/forms';

/** Each count, its label and the queue filter (address) that lists exactly what it counts. */
const COUNTS: [keyof QueueStats, string, string][] = [
  ['open', 'Open', 'status=open'],
  ['overdue', 'Overdue', 'overdue=true'],
  ['due_within_7_days', 'Due within 7 days', 'status=open&due_within_days=7'],
  ['pending_approval', 'Pending approval', 'status=pending_approval'],
  ['action_required', 'Action required', 'status=action_required'],
  ['unassigned_open', 'Open, unassigned', 'status=open&assignee=none'],
];

/** `#/queue?…` for a count's filter, over the same workspaces (the `workspaces` filter as typed). */
function countHref(filter: string, workspaces: string): string {
  return `#/queue?${workspaces.trim() ? `workspaces=${encodeURIComponent(workspaces.trim())}&` : ''}${filter}`;
}

/** The queue's counts (GET …/stats) over the workspaces shown; each a link to its filter. */
export function QueueCounts(props: { workspaces: readonly string[] | undefined; workspacesParam: string; version: number }) {
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
          {COUNTS.map(([field, label, filter]) => (
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
              <a href={countHref(filter, props.workspacesParam)}>
                <span class="count-value">{stats[field]}</span> <span class="count-label">{label}</span>
              </a>
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
