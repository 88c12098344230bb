import type { Executor } from '../db/executor.js';
import { isPostgres } from '../db/locking.js';

/** A (workspace, repository) pair holding change events, with its oldest `received_at`. */
export interface ChangeEventScope {
  workspace_id: string;
  /** Lower-cased, as stored. */
  repository: string;
  oldest: string;
}

/**
 * Every (workspace, repository) pair with a change event received before `olderThan` (RFC 3339),
 * and the oldest such event: the sweeper skips pairs with nothing past their retention.
 */
export async function changeEventScopes(db: Executor, olderThan: string): Promise<ChangeEventScope[]> {
  return db
    .selectFrom('change_events')
    .select(['workspace_id', 'repository', (eb) => eb.fn.min('received_at').as('oldest')])
    .where('received_at', '<', olderThan)
    .groupBy(['workspace_id', 'repository'])
    .orderBy('workspace_id')
    .orderBy('repository')
    .execute();
}

/**
 * Deletes at most `limit` change events of one (workspace, repository) received before `cutoff`,
 * in one short statement. On PostgreSQL the rows are taken `FOR UPDATE SKIP LOCKED`, so two
 * sweepers (one per worker process) never wait on each other.
 *
 * @returns how many rows were deleted; fewer than `limit` means the pair is done (for now).
 */
export async function deleteChangeEventsBefore(
  db: Executor,
  scope: { workspace_id: string; repository: string },
  cutoff: string,
  limit: number,
): Promise<number> {
  let batch = db
    .selectFrom('change_events')
    .select('id')
    .where('workspace_id', '=', scope.workspace_id)
    .where('repository', '=', scope.repository)
    .where('received_at', '<', cutoff)
    .limit(limit);
  if (isPostgres(db)) batch = batch.forUpdate().skipLocked();
  const result = await db
    .deleteFrom('change_events')
    .where('id', 'in', batch)
    // Repeated so a row changed between the sub-select and the delete is judged again.
    .where('received_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes at most `limit` idempotency records past `expires_at` (≤ `now`) whose response is
 * stored (`completed`), or whose `in_flight` claim is older than `inFlightBefore` (its process
 * died; it would be taken over anyway). A live in-flight claim is never touched.
 *
 * @returns how many rows were deleted.
 */
export async function deleteExpiredIdempotencyRecords(
  db: Executor,
  now: string,
  inFlightBefore: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_records')
    .where(({ eb, refTuple, selectFrom }) => {
      let batch = selectFrom('idempotency_records')
        .select(['principal_id', 'idempotency_key'])
        .where('expires_at', '<=', now)
        .where((w) =>
          w.or([w('state', '=', 'completed'), w.and([w('state', '=', 'in_flight'), w('created_at', '<=', inFlightBefore)])]),
        )
        .limit(limit);
      if (isPostgres(db)) batch = batch.forUpdate().skipLocked();
      return eb(refTuple('principal_id', 'idempotency_key'), 'in', batch.$asTuple('principal_id', 'idempotency_key'));
    })
    .where('expires_at', '<=', now)
    .where((w) => w.or([w('state', '=', 'completed'), w('created_at', '<=', inFlightBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes at most `limit` remembered webhook deliveries whose de-duplication window has passed
 * (`expires_at` ≤ `now`). A redelivery after that is recorded again.
 *
 * @returns how many rows were deleted.
 */
export async function deleteExpiredDeliveries(db: Executor, now: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where(({ eb, refTuple, selectFrom }) => {
      let batch = selectFrom('webhook_deliveries')
        .select(['integration_id', 'delivery_id'])
        .where('expires_at', '<=', now)
        .limit(limit);
      if (isPostgres(db)) batch = batch.forUpdate().skipLocked();
      return eb(refTuple('integration_id', 'delivery_id'), 'in', batch.$asTuple('integration_id', 'delivery_id'));
    })
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
