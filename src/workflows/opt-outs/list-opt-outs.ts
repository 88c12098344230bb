import { toTimestamp } from '../../lib/clock.js';
import { decodeBoundCursor, encodeBoundCursor } from '../../lib/cursor.js';
import { listOptOutRows } from '../../modules/opt-outs/opt-out.repository.js';
import { expandOptOutStatuses, toOptOutResource } from '../../modules/opt-outs/opt-out.fns.js';
import { OPEN_OPT_OUT_STATUSES, type OptOutResource } from '../../modules/opt-outs/opt-out.types.js';
import type { OptOutDeps } from './deps.js';

/** Filters of {@link listOptOuts}; `workspace_ids` null: every workspace. */
export interface ListOptOutsInput {
  workspace_ids: readonly string[] | null;
  subject_provider?: string | undefined;
  subject_id?: string | undefined;
  /** Statuses, `open` standing for the non-final ones. */
  status?: readonly string[] | undefined;
  /** true: only open ones past `due_at` (as of the service clock); false: every other one. */
  overdue?: boolean | undefined;
  cursor?: string | undefined;
  limit: number;
}

const isPosition = (p: readonly unknown[]): p is [string] =>
  p.length === 1 && typeof p[0] === 'string' && /^oo_[0-9A-HJKMNP-TV-Z]{26}$/.test(p[0]);

/**
 * A page of opt-outs, newest first (PRODUCT §2.18); `overdue: true` lists what the queue count
 * `overdue_opt_outs` counts (§2.21), as of `deps.clock`. The caller decides which workspaces the
 * principal may read (403 before this).
 * @returns `items` and `next_cursor` (null on the last page), a cursor bound to these filters.
 * @throws InvalidCursorError for a cursor not issued here, or issued for another query.
 */
export async function listOptOuts(
  deps: Pick<OptOutDeps, 'db' | 'clock'>,
  input: ListOptOutsInput,
): Promise<{ items: OptOutResource[]; next_cursor: string | null }> {
  const statuses = expandOptOutStatuses(input.status);
  const filters = {
    w: input.workspace_ids === null ? null : [...new Set(input.workspace_ids)].sort(),
    s: statuses,
    sp: input.subject_provider,
    si: input.subject_id,
    o: input.overdue,
  };
  const beforeId = input.cursor === undefined ? undefined : decodeBoundCursor(input.cursor, filters, isPosition)[0];
  const rows = await listOptOutRows(deps.db, {
    workspaceIds: filters.w,
    subjectProvider: input.subject_provider,
    subjectId: input.subject_id,
    statuses,
    overdue:
      input.overdue === undefined
        ? undefined
        : { only: input.overdue, openStatuses: OPEN_OPT_OUT_STATUSES, now: toTimestamp(deps.clock()) },
    beforeId,
    limit: input.limit + 1,
  });
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  return {
    items: items.map(toOptOutResource),
    next_cursor: rows.length > input.limit && last ? encodeBoundCursor([last.id], filters) : null,
  };
}
