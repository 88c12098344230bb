// The officer's day on the queue (PRODUCT.md §2.16, §2.21): the counts on top, each a link to the
// filter that lists what it counts (the opt-outs' to the Opt-outs view, §2.18), and the CSV download (the bulk form is queue-bulk.tsx).
import { useEffect, useState } from 'preact/hooks';
import { api, call, queryString } from '../api/client';
import type { QueueStats } from '../api/types';
import { ErrorText, useSubmit } from '../components/forms';
import { countHref } from '../lib/opt-out-filters';

/** Each count, its label, the view and the filter (address) that lists exactly what it counts. */
const COUNTS: [keyof QueueStats, string, 'queue' | 'opt-outs', string][] = [
  ['open', 'Open', 'queue', 'status=open'],
  ['overdue', 'Overdue', 'queue', 'overdue=true'],
  ['due_within_7_days', 'Due within 7 days', 'queue', 'status=open&due_within_days=7'],
  ['pending_approval', 'Pending approval', 'queue', 'status=pending_approval'],
  ['action_required', 'Action required', 'queue', 'status=action_required'],
  ['unassigned_open', 'Open, unassigned', 'queue', 'status=open&assignee=none'],
  ['open_opt_outs', 'Opt-outs open', 'opt-outs', 'open=true'],
  ['overdue_opt_outs', 'Opt-outs overdue', 'opt-outs', 'overdue=true'],
];

/** The tiles drawn red when they count anything: what is past its deadline. */
const OVERDUE = new Set<keyof QueueStats>(['overdue', 'overdue_opt_outs']);

/**
 * The queue's counts (GET …/stats) over the workspaces shown, the requests' then the opt-outs' on
 * a row of their own; each a link to its filter.
 */
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
      {stats &&
        (['queue', 'opt-outs'] as const).map((group) => (
          <ul key={group} aria-label={group === 'queue' ? 'Requests' : 'Opt-outs'}>
            {COUNTS.filter(([, , view]) => view === group).map(([field, label, view, filter]) => (
              <li
                key={field}
                class={
                  OVERDUE.has(field) && stats[field] > 0
                    ? 'count count-overdue'
                    : field === 'due_within_7_days' && stats.due_within_7_days > 0
                      ? 'count count-soon'
                      : 'count'
                }
              >
                <a href={countHref(view, filter, props.workspacesParam)}>
                  <span class="count-value">{stats[field]}</span> <span class="count-label">{label}</span>
                </a>
              </li>
            ))}
          </ul>
        ))}
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
