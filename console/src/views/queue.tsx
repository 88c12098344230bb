// Queue (PRODUCT.md §2b): requests of the workspaces the token may read, with filters, the
// deadline in words and the subject masked until the request is opened. Paged with the API cursor.
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { ListQuery, PrivacyRequest, PrivacyRequestPage, RequestStatus, RequestType } from '../api/types';
import { REQUEST_STATUSES, REQUEST_TYPES } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { bindingDue, deadlineText, statusLabel } from '../lib/deadline';
import { requestHref } from '../lib/router';
import { NewRequestForm } from './new-request';

/** The list filters the API offers (typed against its query parameters). */
interface Filters {
  workspace_id: string;
  status: RequestStatus | '';
  request_type: RequestType | '';
  overdue: boolean;
}

type Order = 'newest' | 'due';

const PAGE_SIZE = 25;

function listQuery(
  filters: Filters,
  cursor: string | null,
): Partial<ListQuery> & Record<string, string | number | boolean | undefined> {
  return {
    workspace_id: filters.workspace_id.trim() || undefined,
    status: filters.status || undefined,
    request_type: filters.request_type || undefined,
    overdue: filters.overdue || undefined,
    cursor: cursor ?? undefined,
    limit: PAGE_SIZE,
  } satisfies { [K in keyof ListQuery]?: ListQuery[K] | undefined };
}

function sorted(items: PrivacyRequest[], order: Order): PrivacyRequest[] {
  if (order === 'newest') return items;
  return [...items].sort((a, b) => Date.parse(bindingDue(a)) - Date.parse(bindingDue(b)));
}

function Row({ request }: { request: PrivacyRequest }) {
  const deadline = deadlineText(request);
  return (
    <tr>
      <td data-label="Request">
        <a href={requestHref(request.id)}>{request.id}</a>
      </td>
      <td data-label="Type">{request.request_type}</td>
      <td data-label="Workspace">{request.workspace_id}</td>
      <td data-label="Status">
        <span class={`status status-${request.status}`}>{statusLabel(request.status)}</span>
      </td>
      <td data-label="Regulation">{request.regulation.toUpperCase()}</td>
      <td data-label="Deadline" class={deadline.overdue ? 'overdue' : undefined}>
        {deadline.text}
      </td>
      <td data-label="Subject">
        <span aria-label="subject hidden until opened">{request.subject_provider}: ••••••</span>
      </td>
    </tr>
  );
}

function FilterForm(props: { initial: Filters; error: unknown; onApply: (filters: Filters) => void }) {
  const [filters, setFilters] = useState(props.initial);
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setFilters({ ...filters, [key]: value });
  return (
    <form
      class="filters"
      aria-label="Filter requests"
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply(filters);
      }}
    >
      <Field id="filter-workspace" label="Workspace" errors={fieldErrors(props.error, 'workspace_id')}>
        {(a11y) => (
          <input
            {...a11y}
            value={filters.workspace_id}
            maxLength={200}
            onInput={(e) => set('workspace_id', e.currentTarget.value)}
          />
        )}
      </Field>
      <Field id="filter-status" label="Status">
        {(a11y) => (
          <select {...a11y} value={filters.status} onChange={(e) => set('status', e.currentTarget.value as Filters['status'])}>
            <option value="">Any status</option>
            {REQUEST_STATUSES.map((status) => (
              <option value={status} key={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="filter-type" label="Type">
        {(a11y) => (
          <select
            {...a11y}
            value={filters.request_type}
            onChange={(e) => set('request_type', e.currentTarget.value as Filters['request_type'])}
          >
            <option value="">Any type</option>
            {REQUEST_TYPES.map((type) => (
              <option value={type} key={type}>
                {type}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="field checkbox">
        <input
          id="filter-overdue"
          type="checkbox"
          checked={filters.overdue}
          onChange={(e) => set('overdue', e.currentTarget.checked)}
        />
        <label for="filter-overdue">Overdue only</label>
      </div>
      <button type="submit">Apply filters</button>
    </form>
  );
}

export function QueueView() {
  const [filters, setFilters] = useState<Filters>({ workspace_id: '', status: '', request_type: '', overdue: false });
  const [order, setOrder] = useState<Order>('newest');
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
    void fetchPage(filters, null);
  }, [filters]);

  return (
    <>
      <h1 tabIndex={-1}>Queue</h1>
      <FilterForm initial={filters} error={load.error} onApply={setFilters} />
      <ErrorText error={load.error} />
      <div class="list-head">
        <p role="status">
          {loaded
            ? `${items.length} request${items.length === 1 ? '' : 's'} shown${cursor ? ', more available' : ''}`
            : 'Loading…'}
        </p>
        <label class="inline">
          Order{' '}
          <select value={order} onChange={(e) => setOrder(e.currentTarget.value as Order)}>
            <option value="newest">Newest first</option>
            <option value="due">Due date, soonest first (of those shown)</option>
          </select>
        </label>
      </div>
      {items.length > 0 && (
        <table class="queue">
          <caption class="visually-hidden">Privacy requests</caption>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Type</th>
              <th scope="col">Workspace</th>
              <th scope="col">Status</th>
              <th scope="col">Regulation</th>
              <th scope="col">Deadline</th>
              <th scope="col">Subject</th>
            </tr>
          </thead>
          <tbody>
            {sorted(items, order).map((request) => (
              <Row request={request} key={request.id} />
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" class="secondary" disabled={load.busy} onClick={() => void fetchPage(filters, cursor)}>
          {load.busy ? 'Loading…' : 'Load more'}
        </button>
      )}
      <NewRequestForm defaultWorkspace={filters.workspace_id} onFiled={() => void fetchPage(filters, null)} />
    </>
  );
}
