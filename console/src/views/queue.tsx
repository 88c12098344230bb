// Queue (PRODUCT.md §2b): requests of the workspaces the token may read, with filters, the
// deadline in words and the subject masked until the request is opened. Paged with the API cursor.
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { ListQuery, PrivacyRequest, PrivacyRequestPage, RequestStatus, RequestType } from '../api/types';
import { REQUEST_STATUSES, REQUEST_TYPES } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { deadlineText, regulationLabel, statusLabel } from '../lib/deadline';
import { requestHref } from '../lib/router';
import { NewRequestForm } from './new-request';

/** The list filters as typed in the form; {@link listQuery} turns them into the API's query. */
interface Filters {
  /** Comma-separated workspace ids; empty: every workspace the token may read. */
  workspaces: string;
  status: RequestStatus | '';
  request_type: RequestType | '';
  overdue: boolean;
  /** Due within this many days; empty: any. Sent as `due_before`. */
  due_within: string;
  subject_provider: string;
  subject_id: string;
  sort: NonNullable<ListQuery['sort']>;
}

const EMPTY: Filters = {
  workspaces: '',
  status: '',
  request_type: '',
  overdue: false,
  due_within: '',
  subject_provider: '',
  subject_id: '',
  sort: 'created_at',
};

const PAGE_SIZE = 25;
const DAY_MS = 86_400_000;

/** Problems with the filters before anything is sent, by form field. */
function filterProblems(filters: Filters): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (filters.due_within.trim()) {
    const n = Number(filters.due_within);
    if (!Number.isInteger(n) || n < 0 || n > 3650) problems.due_within = ['A whole number of days, 0 to 3650'];
  }
  if (filters.subject_provider.trim() && !filters.subject_id.trim()) problems.subject_id = ['Give the subject id to search for'];
  return problems;
}

/** The API's query (typed by its OpenAPI parameters) for these filters and page. */
function listQuery(filters: Filters, cursor: string | null): { [K in keyof ListQuery]?: ListQuery[K] } {
  const workspaces = filters.workspaces
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const days = filters.due_within.trim();
  return {
    workspace_id: workspaces.length ? workspaces : undefined,
    status: filters.status ? [filters.status] : undefined,
    request_type: filters.request_type || undefined,
    overdue: filters.overdue || undefined,
    due_before: days ? new Date(Date.now() + Number(days) * DAY_MS).toISOString() : undefined,
    subject_provider: filters.subject_provider.trim() || undefined,
    subject_id: filters.subject_id.trim() || undefined,
    sort: filters.sort,
    cursor: cursor ?? undefined,
    limit: PAGE_SIZE,
  };
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
      <td data-label="Regulation">{regulationLabel(request.regulation)}</td>
      <td data-label="Deadline" class={deadline.overdue ? 'overdue' : undefined}>
        {deadline.text}
      </td>
      <td data-label="Subject">
        <span aria-label="subject hidden until opened">{request.subject_provider}: ••••••</span>
      </td>
    </tr>
  );
}

type TextFilter = 'workspaces' | 'due_within' | 'subject_provider' | 'subject_id';

function FilterForm(props: { initial: Filters; error: unknown; onApply: (filters: Filters) => void }) {
  const [filters, setFilters] = useState(props.initial);
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setFilters({ ...filters, [key]: value });
  const text = (key: TextFilter, id: string, label: string, apiName: string, hint?: string) => (
    <Field id={id} label={label} hint={hint} errors={fieldErrors(props.error, apiName, local[key])}>
      {(a11y) => <input {...a11y} value={filters[key]} onInput={(e) => set(key, e.currentTarget.value)} />}
    </Field>
  );
  return (
    <form
      class="filters"
      aria-label="Filter requests"
      onSubmit={(event) => {
        event.preventDefault();
        const problems = filterProblems(filters);
        setLocal(problems);
        if (Object.keys(problems).length === 0) props.onApply(filters);
      }}
    >
      {text('workspaces', 'filter-workspace', 'Workspace', 'workspace_id')}
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
      {text('due_within', 'filter-due-within', 'Due within (days)', 'due_before')}
      {text('subject_id', 'filter-subject-id', 'Subject id', 'subject_id')}
      {text('subject_provider', 'filter-subject-provider', 'Subject provider', 'subject_provider')}
      <Field id="filter-sort" label="Order">
        {(a11y) => (
          <select {...a11y} value={filters.sort} onChange={(e) => set('sort', e.currentTarget.value as Filters['sort'])}>
            <option value="created_at">Newest first</option>
            <option value="due_at">Due date, soonest first</option>
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
  const [filters, setFilters] = useState<Filters>(EMPTY);
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
      <p class="hint">
        Every workspace your token may read, unless you name some (comma-separated). Subject id finds a person&apos;s requests
        (exact match), with or without its provider.
      </p>
      <FilterForm initial={filters} error={load.error} onApply={setFilters} />
      <ErrorText error={load.error} />
      <p role="status">
        {loaded ? `${items.length} request${items.length === 1 ? '' : 's'} shown${cursor ? ', more available' : ''}` : 'Loading…'}
      </p>
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
            {items.map((request) => (
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
      <NewRequestForm
        defaultWorkspace={filters.workspaces.split(',')[0]?.trim() ?? ''}
        onFiled={() => void fetchPage(filters, null)}
      />
    </>
  );
}
