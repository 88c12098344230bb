import type { Executor } from '../../db/executor.js';
import type { PrivacyRequestRow } from '../request-model/request-model.js';

/** The two deadline moments the sweep reports (PRODUCT §2.8), by the column that marks each done. */
export type DeadlineMoment = 'due_soon' | 'overdue';

const MARK = { due_soon: 'due_soon_notified_at', overdue: 'overdue_notified_at' } as const;

/**
 * Up to `limit` requests, any status, whose `moment` was not dealt with yet and whose binding
 * due date (`coalesce(extended_due_at, due_at)`) is at or before `dueBy`, earliest first: a range
 * search of the partial index `privacy_requests_deadline_sweep_idx` (migration 2026-11-24T0006),
 * which holds only requests whose overdue moment is not dealt with (a due-soon moment comes
 * first, so an unmarked due-soon is in it too).
 */
export async function findUnmarked(
  db: Executor,
  moment: DeadlineMoment,
  dueBy: string,
  limit: number,
): Promise<PrivacyRequestRow[]> {
  return db
    .selectFrom('privacy_requests')
    .selectAll()
    .where('overdue_notified_at', 'is', null)
    .where(MARK[moment], 'is', null)
    .where((eb) => eb(eb.fn.coalesce('extended_due_at', 'due_at'), '<=', dueBy))
    .orderBy((eb) => eb.fn.coalesce('extended_due_at', 'due_at'))
    .limit(limit)
    .execute();
}

/** Marks `moment` dealt with at `at` for the requests `ids`. */
export async function markDealtWith(db: Executor, moment: DeadlineMoment, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('privacy_requests')
    .set({ [MARK[moment]]: at })
    .where('id', 'in', [...ids])
    .execute();
}
