import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DB } from '../../db/schema.js';
import { OPEN_STATUSES } from '../request-model/request-model.js';

/**
 * What both grouped reads below measure a request by: its binding due date
 * (`coalesce(extended_due_at, due_at)`, RFC 3339 UTC text) and `count(condition)`, the number of
 * the group's requests for which `condition` holds (`sum(case when … then 1 else 0 end)`; number or
 * numeric text, as the database returns it).
 */
function openRequestMeasures(eb: ExpressionBuilder<DB, 'privacy_requests'>) {
  return {
    due: eb.fn.coalesce('extended_due_at', 'due_at'),
    count: (condition: Expression<SqlBool>) => eb.fn.sum<number | string>(eb.case().when(condition).then(1).else(0).end()),
  };
}

/** The open (not final) requests of one regulation and status, as the metrics gauges need them. */
export interface OpenRequestStats {
  /** `gdpr`, `ccpa` or `ccpa+gdpr`. */
  regulation: string;
  /** One of {@link OPEN_STATUSES}. */
  status: string;
  /** How many. */
  count: number;
  /** How many are past their (extended) due date: `coalesce(extended_due_at, due_at)` before `at`. */
  overdue: number;
  /** How many are due in [`at`, `soon`]. */
  due_soon: number;
  /** The earliest `created_at` among them (RFC 3339 UTC). */
  oldest_created_at: string;
  /** The earliest (extended) due date among them (RFC 3339 UTC). */
  earliest_due_at: string;
}

/**
 * Open requests grouped by regulation and status, in one read of the open requests: counts,
 * overdue and due-soon counts as of `at`, the oldest filing and the earliest deadline. Groups with
 * no request are absent. Times are RFC 3339 UTC text, compared as text (fixed width).
 *
 * @param at - "now", RFC 3339 UTC.
 * @param soon - the end of the due-soon window, RFC 3339 UTC.
 */
export async function openRequestStats(db: Executor, at: string, soon: string): Promise<OpenRequestStats[]> {
  const rows = await db
    .selectFrom('privacy_requests')
    .select((eb) => {
      const { due, count } = openRequestMeasures(eb);
      return [
        'regulation',
        'status',
        eb.fn.countAll<number | string>().as('count'),
        count(eb(due, '<', at)).as('overdue'),
        count(eb.and([eb(due, '>=', at), eb(due, '<=', soon)])).as('due_soon'),
        eb.fn.min('created_at').as('oldest_created_at'),
        eb.fn.min(due).as('earliest_due_at'),
      ];
    })
    .where('status', 'in', [...OPEN_STATUSES])
    .groupBy(['regulation', 'status'])
    .execute();
  // PostgreSQL returns count() as bigint text and sum() as numeric text.
  return rows.map((r) => ({
    regulation: r.regulation,
    status: r.status,
    count: Number(r.count),
    overdue: Number(r.overdue),
    due_soon: Number(r.due_soon),
    oldest_created_at: String(r.oldest_created_at),
    earliest_due_at: String(r.earliest_due_at),
  }));
}

/** The queue's counts (PRODUCT §2.16), exact. */
export interface QueueCounts {
  open: number;
  overdue: number;
  due_within_7_days: number;
  pending_approval: number;
  action_required: number;
  unassigned_open: number;
}

/**
 * The queue's counts over `workspaceIds` (null: every workspace) in ONE grouped read of the open
 * requests (`status IN (open statuses)`, per workspace through
 * `privacy_requests_workspace_status_due_idx`; final requests are never read): per status, how
 * many, how many past their binding due date (`coalesce(extended_due_at, due_at) < now`), how
 * many due in [`now`, `soon`], how many assigned to nobody. The index holds every column this
 * reads (`assignee` since 2026-11-28T0801), so SQLite answers from the index alone.
 *
 * @param now - RFC 3339 UTC.
 * @param soon - `now` + 7 days, RFC 3339 UTC.
 */
export async function queueCounts(
  db: Executor,
  workspaceIds: readonly string[] | null,
  now: string,
  soon: string,
): Promise<QueueCounts> {
  let query = db
    .selectFrom('privacy_requests')
    .select((eb) => {
      const { due, count } = openRequestMeasures(eb);
      return [
        'status',
        eb.fn.countAll<number | string>().as('count'),
        count(eb(due, '<', now)).as('overdue'),
        count(eb.and([eb(due, '>=', now), eb(due, '<=', soon)])).as('due_soon'),
        count(eb('assignee', 'is', null)).as('unassigned'),
      ];
    })
    .where('status', 'in', [...OPEN_STATUSES]);
  if (workspaceIds !== null) {
    if (workspaceIds.length === 0)
      return { open: 0, overdue: 0, due_within_7_days: 0, pending_approval: 0, action_required: 0, unassigned_open: 0 };
    query = query.where('workspace_id', 'in', [...workspaceIds]);
  }
  const rows = await query.groupBy('status').execute();
  const counts: QueueCounts = {
    open: 0,
    overdue: 0,
    due_within_7_days: 0,
    pending_approval: 0,
    action_required: 0,
    unassigned_open: 0,
  };
  for (const r of rows) {
    const n = Number(r.count);
    counts.open += n;
    counts.overdue += Number(r.overdue);
    counts.due_within_7_days += Number(r.due_soon);
    counts.unassigned_open += Number(r.unassigned);
    if (r.status === 'pending_approval') counts.pending_approval = n;
    if (r.status === 'action_required') counts.action_required = n;
  }
  return counts;
}
