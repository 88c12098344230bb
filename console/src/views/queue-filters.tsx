// The queue's filters (PRODUCT.md §2b, §2.16, §2.21): as typed in the form, kept in the address
// (`#/queue?status=open&due_within_days=7`, so a count's link, a reload or a shared address shows
// the same list), checked before sending, and turned into the list API's query.
import { useState } from 'preact/hooks';
import type { ListQuery, RequestStatus, RequestType } from '../api/types';
import { REQUEST_STATUSES, REQUEST_TYPES } from '../api/types';
import { Field, fieldErrors } from '../components/forms';
import { statusLabel } from '../lib/deadline';
import { hashParams, setHashParams } from '../lib/router';

/** The list filters as typed in the form; {@link listQuery} turns them into the API's query. */
export interface Filters {
  /** Comma-separated workspace ids; empty: every workspace the token may read. */
  workspaces: string;
  /** `open` (every non-final status, the default), one status, or '' for any. */
  status: RequestStatus | 'open' | '';
  /** '' anyone, `me` the signed-in operator, `none` unassigned. */
  assignee: '' | 'me' | 'none';
  request_type: RequestType | '';
  overdue: boolean;
  /** Not overdue and due within this many days (`due_within_days`, PRODUCT §2.21); empty: any. */
  due_within_days: string;
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
  due_within_days: '',
  subject_provider: '',
  subject_id: '',
  sort: 'due_at',
};

const FILTER_KEYS = Object.keys(EMPTY) as (keyof Filters)[];

/** The filters kept in the address (`#/queue?status=open&sort=due_at…`), the defaults for the rest. */
export function filtersFromHash(): Filters {
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
export function filtersToHash(filters: Filters): void {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    if (filters[key] !== EMPTY[key]) params.set(key, String(filters[key]));
  }
  setHashParams(params);
}

/** Requests per page. */
const PAGE_SIZE = 25;

/** Problems with the filters before anything is sent, by form field. */
function filterProblems(filters: Filters): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (filters.due_within_days.trim()) {
    const n = Number(filters.due_within_days);
    if (!Number.isInteger(n) || n < 0 || n > 3650) problems.due_within_days = ['A whole number of days, 0 to 3650'];
  }
  if (filters.subject_provider.trim() && !filters.subject_id.trim()) problems.subject_id = ['Give the subject id to search for'];
  return problems;
}

/** The API's query (typed by its OpenAPI parameters) for these filters and page. */
export function listQuery(filters: Filters, cursor: string | null): { [K in keyof ListQuery]?: ListQuery[K] } {
  const workspaces = filters.workspaces
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const days = filters.due_within_days.trim();
  const subjectId = filters.subject_id.trim();
  // An e-mail address with no provider named is searched as one: without regard to case (PRODUCT §2.21).
  const provider = filters.subject_provider.trim() || (subjectId.includes('@') ? 'email' : '');
  return {
    workspace_id: workspaces.length ? workspaces : undefined,
    status: filters.status ? [filters.status] : undefined,
    assignee: filters.assignee || undefined,
    request_type: filters.request_type || undefined,
    overdue: filters.overdue || undefined,
    due_within_days: days ? Number(days) : undefined,
    subject_provider: provider || undefined,
    subject_id: subjectId || undefined,
    sort: filters.sort,
    cursor: cursor ?? undefined,
    limit: PAGE_SIZE,
  };
}

type TextFilter = 'workspaces' | 'due_within_days' | 'subject_provider' | 'subject_id';

export function FilterForm(props: { initial: Filters; error: unknown; onApply: (filters: Filters) => void }) {
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
      {text('due_within_days', 'filter-due-within', 'Due within (days)', 'due_within_days', 'Not yet overdue')}
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
