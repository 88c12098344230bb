// Queue (PRODUCT.md §2b, §2.16): requests of the workspaces the token may read, with the queue's
// counts on top, filters kept in the address (open requests by binding due date by default), the
// deadline in words (due within 7 days marked), the subject masked until the request is opened,
// rows selected for one bulk action, and the CSV download. Paged with the API cursor.
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { PrivacyRequest, PrivacyRequestPage } from '../api/types';
import { hasScope, useWhoAmI } from '../api/whoami';
import { ErrorText, useSubmit } from '../components/forms';
import { deadlineText, regulationLabel, statusLabel } from '../lib/deadline';
import { requestHref } from '../lib/router';
import { NewRequestForm } from './new-request';
import { BulkActions } from './queue-bulk';
import { FilterForm, type Filters, filtersFromHash, filtersToHash, listQuery } from './queue-filters';
import { downloadCsv, QueueCounts } from './queue-officer';

const DAY_MS = 86_400_000;

function Row(props: { request: PrivacyRequest; selectable: boolean; selected: boolean; onSelect: (on: boolean) => void }) {
  const { request } = props;
  const deadline = deadlineText(request);
  const left = Date.parse(request.extended_due_at ?? request.due_at) - Date.now();
  const dueSoon = !deadline.overdue && !deadline.text.startsWith('closed') && left <= 7 * DAY_MS;
  return (
    <tr class={deadline.overdue ? 'row-overdue' : dueSoon ? 'row-due-soon' : undefined}>
      {props.selectable && (
        <td data-label="Select">
          <input
            type="checkbox"
            aria-label={`Select ${request.id}`}
            checked={props.selected}
            onChange={(e) => props.onSelect(e.currentTarget.checked)}
          />
        </td>
      )}
      <td data-label="Request" class="request-id">
        <a href={requestHref(request.id)}>{request.id}</a>
      </td>
      <td data-label="Type">{request.request_type}</td>
      <td data-label="Workspace">{request.workspace_id}</td>
      <td data-label="Status">
        <span class={`status status-${request.status}`}>{statusLabel(request.status)}</span>
      </td>
      <td data-label="Regulation">{regulationLabel(request.regulation)}</td>
      <td data-label="Deadline" class={deadline.overdue ? 'overdue' : dueSoon ? 'due-soon' : undefined}>
        {deadline.text}
        {dueSoon && <span class="badge badge-soon">within 7 days</span>}
      </td>
      <td data-label="Assignee">{request.assignee ?? <span class="muted">nobody</span>}</td>
      <td data-label="Subject">
        <span aria-label="subject hidden until opened">{request.subject_provider}: ••••••</span>
      </td>
    </tr>
  );
}

export function QueueView() {
  const [filters, setFilters] = useState<Filters>(filtersFromHash);
  // The selected requests as they were when selected: a bulk action's preview reads their state.
  const [selected, setSelected] = useState<Map<string, PrivacyRequest>>(new Map());
  const [version, setVersion] = useState(0);
  const me = useWhoAmI();
  const canWrite = hasScope(me, 'privacy:write');
  const download = useSubmit();
  const [items, setItems] = useState<PrivacyRequest[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const load = useSubmit();

  const fetchPage = (applied: Filters, after: string | null) =>
    load.run(async () => {
      const page = await api<PrivacyRequestPage>('GET', `/api/v1/privacy/requests${queryString(listQuery(applied, after))}`);
      setItems((previous) => (after ? [...previous, ...page.items] : page.items));
      setCursor(page.next_cursor);
      setLoaded(true);
    });

  useEffect(() => {
    filtersToHash(filters);
    setSelected(new Map());
  }, [filters]);
  // A link to a filter (a count on top, a shared address) changes the hash: show what it names.
  useEffect(() => {
    const follow = () => setFilters(filtersFromHash());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => {
    void fetchPage(filters, null);
  }, [filters, version]);
  const workspaceIds = listQuery(filters, null).workspace_id;

  return (
    <>
      <h1 tabIndex={-1}>Queue</h1>
      <QueueCounts workspaces={workspaceIds} workspacesParam={filters.workspaces} version={version} />
      <p class="hint">
        Every workspace your token may read, unless you name some (comma-separated). Subject id finds a person&apos;s requests: an
        e-mail address in any case (as provider email), any other id exactly, with or without its provider.
      </p>
      <FilterForm key={JSON.stringify(filters)} initial={filters} error={load.error} onApply={setFilters} />
      <ErrorText error={load.error} />
      <div class="buttons">
        <button
          type="button"
          class="secondary"
          disabled={download.busy}
          onClick={() =>
            void download.run(() =>
              downloadCsv(queryString({ ...listQuery(filters, null), cursor: undefined, limit: undefined })),
            )
          }
        >
          {download.busy ? 'Preparing CSV…' : 'Download CSV (these filters)'}
        </button>
      </div>
      <ErrorText error={download.error} />
      {canWrite && selected.size > 0 && (
        <BulkActions
          requests={[...selected.values()]}
          onDone={(updated) => {
            setSelected((old) => new Map([...old.keys()].map((id) => [id, updated.find((r) => r.id === id) ?? old.get(id)!])));
            setVersion((n) => n + 1);
          }}
          onClear={() => setSelected(new Map())}
        />
      )}
      <p role="status">
        {loaded ? `${items.length} request${items.length === 1 ? '' : 's'} shown${cursor ? ', more available' : ''}` : 'Loading…'}
      </p>
      {items.length > 0 && (
        <table class="queue">
          <caption class="visually-hidden">Privacy requests</caption>
          <thead>
            <tr>
              {canWrite && (
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select every request shown"
                    checked={items.length > 0 && items.every((r) => selected.has(r.id))}
                    onChange={(e) => setSelected(new Map(e.currentTarget.checked ? items.map((r) => [r.id, r]) : []))}
                  />
                </th>
              )}
              <th scope="col">Request</th>
              <th scope="col">Type</th>
              <th scope="col">Workspace</th>
              <th scope="col">Status</th>
              <th scope="col">Regulation</th>
              <th scope="col">Deadline</th>
              <th scope="col">Assignee</th>
              <th scope="col">Subject</th>
            </tr>
          </thead>
          <tbody>
            {items.map((request) => (
              <Row
                request={request}
                key={request.id}
                selectable={canWrite}
                selected={selected.has(request.id)}
                onSelect={(on) => {
                  const next = new Map(selected);
                  if (on) next.set(request.id, request);
                  else next.delete(request.id);
                  setSelected(next);
                }}
              />
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" class="secondary" disabled={load.busy} onClick={() => void fetchPage(filters, cursor)}>
          {load.busy ? 'Loading…' : 'Load more'}
        </button>
      )}
      {canWrite && (
        <NewRequestForm
          defaultWorkspace={filters.workspaces.split(',')[0]?.trim() ?? ''}
          onFiled={() => void fetchPage(filters, null)}
        />
      )}
    </>
  );
}
