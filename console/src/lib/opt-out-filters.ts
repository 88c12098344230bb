// The Opt-outs view's filters (PRODUCT §2.18, §2.21), kept in the address (`#/opt-outs?…`), and
// the links of the queue's count tiles: each tile leads to the filter that lists exactly what it
// counts (`open_opt_outs` → `open=true`, the list's `status=open`; `overdue_opt_outs` →
// `overdue=true`, the list's `overdue=true`). No import: the unit test compiles this file alone.

/** The Opt-outs view's filters. */
export interface OptOutFilters {
  /** Comma-separated workspace ids; empty: every workspace the token may read. */
  workspaces: string;
  /** Queued or processing only (`status=open`). */
  openOnly: boolean;
  /** Open and past their due date only (`overdue=true`). */
  overdueOnly: boolean;
}

/** The filters an address's query part names (`workspaces`, `open=true`, `overdue=true`). */
export function optOutFiltersFrom(params: URLSearchParams): OptOutFilters {
  return {
    workspaces: params.get('workspaces') ?? '',
    openOnly: params.get('open') === 'true',
    overdueOnly: params.get('overdue') === 'true',
  };
}

/** The address's query part for `filters` (only what is set, so a shared link stays short). */
export function optOutFilterParams(filters: OptOutFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.workspaces.trim()) params.set('workspaces', filters.workspaces.trim());
  if (filters.openOnly) params.set('open', 'true');
  if (filters.overdueOnly) params.set('overdue', 'true');
  return params;
}

/** The workspace ids of a comma-separated list, trimmed, empty ones dropped. */
export function workspaceList(text: string): string[] {
  return text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
}

/** `GET /api/v1/privacy/opt-outs` query for `filters` (25 a page, after `cursor`). */
export function optOutListQuery(filters: OptOutFilters, cursor: string | null) {
  const workspaces = workspaceList(filters.workspaces);
  return {
    workspace_id: workspaces.length ? workspaces : undefined,
    status: filters.openOnly ? 'open' : undefined,
    overdue: filters.overdueOnly ? true : undefined,
    cursor,
    limit: 25,
  };
}

/** An opt-out's statuses that are still open (the list's `status=open`). */
export const OPEN_OPT_OUT_STATUSES: readonly string[] = ['queued', 'processing'];

/**
 * Whether an opt-out is overdue as of `now` (ms since the epoch): open and its `due_at` passed,
 * as the list's `overdue=true` and the count `overdue_opt_outs` mean it.
 */
export function isOverdueOptOut(optOut: { status: string; due_at: string }, now: number): boolean {
  return OPEN_OPT_OUT_STATUSES.includes(optOut.status) && Date.parse(optOut.due_at) < now;
}

/**
 * A count tile's link: `#/<view>?` with the same workspaces (the queue's `workspaces` filter as
 * typed, which both views read alike), then the tile's own `filter`.
 */
export function countHref(view: 'queue' | 'opt-outs', filter: string, workspaces: string): string {
  return `#/${view}?${workspaces.trim() ? `workspaces=${encodeURIComponent(workspaces.trim())}&` : ''}${filter}`;
}
