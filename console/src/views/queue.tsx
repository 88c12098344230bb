// Queue (PRODUCT.md §2b, §2.16): requests of the workspaces the token may read, with the queue's
// counts on top, filters kept in the address (open requests by binding due date by default), the
// deadline in words (due within 7 days marked), the subject masked until the request is opened,
// rows selected for one bulk action, and the CSV download. Paged with the API cursor.
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { ListQuery, PrivacyRequest, PrivacyRequestPage, RequestStatus, RequestType } from '../api/types';
import { REQUEST_STATUSES, REQUEST_TYPES } from '../api/types';
import { hasScope, useWhoAmI } from '../api/whoami';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { deadlineText, regulationLabel, statusLabel } from '../lib/deadline';
import { hashParams, requestHref, setHashParams } from '../lib/router';
import { NewRequestForm } from './new-request';
import { BulkActions, downloadCsv, QueueCounts } from './queue-officer';

/** The list filters as typed in the form; {@link listQuery} turns them into the API's query. */
interface Filters {
  /** Comma-separated workspace ids; empty: every workspace the token may read. */
  workspaces: string;
  /** `open` (every non-final status, the default), one status, or '' for any. */
  status: RequestStatus | 'open' | '';
  /** '' anyone, `me` the signed-in operator, `none` unassigned. */
  assignee: '' | 'me' | 'none';
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
  status: 'open',
  assignee: '',
  request_type: '',
  overdue: false,
  due_within: '',
  subject_provider: '',
  subject_id: '',
  sort: 'due_at',
};

const FILTER_KEYS = Object.keys(EMPTY) as (keyof Filters)[];

/** The filters kept in the address (`#/queue?status=open&sort=due_at…`), the defaults for the rest. */
function filtersFromHash(): Filters {
  const params = hashParams();
  const filters: Record<string, string | boolean> = { ...EMPTY };
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value === null) continue;
    filters[key] = key === 'overdue' ? value === 'true' : value;
  }
  return filters as unknown as Filters;
}

/** Writes the filters that differ from the defaults into the address. */
function filtersToHash(filters: Filters): void {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    if (filters[key] !== EMPTY[key]) params.set(key, String(filters[key]));
  }
  setHashParams(params);
}

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
    assignee: filters.assignee || undefined,
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
      <td data-label="Request">
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
            <option value="open">Open (not final)</option>
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
      <Field id="filter-assignee" label="Assignee">
        {(a11y) => (
          <select
            {...a11y}
            value={filters.assignee}
            onChange={(e) => set('assignee', e.currentTarget.value as Filters['assignee'])}
          >
            <option value="">Anyone</option>
            <option value="me">Assigned to me</option>
            <option value="none">Unassigned</option>
          </select>
        )}
      </Field>
      {text('due_within', 'filter-due-within', 'Due within (days)', 'due_before')}
      {text('subject_id', 'filter-subject-id', 'Subject id', 'subject_id')}
      {text('subject_provider', 'filter-subject-provider', 'Subject provider', 'subject_provider')}
      <Field id="filter-sort" label="Order">
        {(a11y) => (
          <select {...a11y} value={filters.sort} onChange={(e) => set('sort', e.currentTarget.value as Filters['sort'])}>
            <option value="due_at">Due date, soonest first</option>
            <option value="created_at">Newest first</option>
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
  const [filters, setFilters] = useState<Filters>(filtersFromHash);
  const [selected, setSelected] = useState<Set<string>>(new Set());
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
    setSelected(new Set());
  }, [filters]);
  useEffect(() => {
    void fetchPage(filters, null);
  }, [filters, version]);
  const workspaceIds = listQuery(filters, null).workspace_id;

  return (
    <>
      <h1 tabIndex={-1}>Queue</h1>
      <QueueCounts workspaces={workspaceIds} version={version} />
      <p class="hint">
        Every workspace your token may read, unless you name some (comma-separated). Subject id finds a person&apos;s requests
        (exact match), with or without its provider.
      </p>
      <FilterForm initial={filters} error={load.error} onApply={setFilters} />
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
        <BulkActions ids={[...selected]} onDone={() => setVersion((n) => n + 1)} onClear={() => setSelected(new Set())} />
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
                    onChange={(e) => setSelected(new Set(e.currentTarget.checked ? items.map((r) => r.id) : []))}
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
                  const next = new Set(selected);
                  if (on) next.add(request.id);
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
