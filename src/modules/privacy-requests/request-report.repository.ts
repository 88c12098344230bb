import type { Executor } from '../../db/executor.js';
import type { ReportInput } from './request-report.fns.js';

/** Which requests a report reads: received in [`from`, `to`) (RFC 3339 UTC; null: open-ended) in `workspaceIds` (null: all). */
export interface ReportRange {
  workspaceIds: readonly string[] | null;
  from: string | null;
  /** Exclusive. */
  to: string | null;
}

/**
 * One page of the requests a report reads, in id order after `afterId`: only the columns the
 * figures need (no subject identity). The caller pages until a page is short, so the report
 * holds one page at a time.
 */
export async function reportPage(
  db: Executor,
  range: ReportRange,
  afterId: string | null,
  limit: number,
): Promise<(ReportInput & { id: string })[]> {
  let query = db
    .selectFrom('privacy_requests')
    .select([
      'id',
      'request_type',
      'status',
      'regulation',
      'received_at',
      'due_at',
      'extended_due_at',
      'completed_at',
      'updated_at',
    ]);
  if (range.workspaceIds !== null) {
    if (range.workspaceIds.length === 0) return [];
    query = query.where('workspace_id', 'in', [...range.workspaceIds]);
  }
  if (range.from !== null) query = query.where('received_at', '>=', range.from);
  if (range.to !== null) query = query.where('received_at', '<', range.to);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}
