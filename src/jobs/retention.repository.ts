import type { Executor } from '../db/executor.js';
import { skipLocked } from '../db/locking.js';

/** A (workspace, repository) pair holding change events, with its oldest `received_at`. */
export interface ChangeEventScope {
  workspace_id: string;
  /** Lower-cased, as stored. */
  repository: string;
  oldest: string;
}

function scopeQuery(db: Executor) {
  return db
    .selectFrom('change_events')
    .select(['workspace_id', 'repository', 'received_at as oldest'])
    .orderBy('workspace_id')
    .orderBy('repository')
    .orderBy('received_at')
    .limit(1);
}

/**
 * The first (workspace, repository) pair after `after` in index order (the first of all when
 * `after` is null), with its oldest `received_at`. Each step is one search of
 * `change_events_retention_idx (workspace_id, repository, received_at)`, whose first entry past
 * a pair is the next pair's oldest event: first the next repository of the same workspace, else
 * the first of the next workspace. Calling it again with the pair returned walks the distinct
 * pairs (a skip scan), so a sweep costs one or two searches per pair, whatever the number of
 * events each holds. (A row-value `(workspace_id, repository) > (?, ?)` would be one statement,
 * but it walked the growth bench's 2,000 pairs about 4× slower than these two on SQLite 3.53.)
 *
 * @returns the pair, or undefined when none follows.
 */
export async function nextChangeEventScope(
  db: Executor,
  after: { workspace_id: string; repository: string } | null,
): Promise<ChangeEventScope | undefined> {
  if (!after) return scopeQuery(db).executeTakeFirst();
  const sameWorkspace = await scopeQuery(db)
    .where('workspace_id', '=', after.workspace_id)
    .where('repository', '>', after.repository)
    .executeTakeFirst();
  return sameWorkspace ?? scopeQuery(db).where('workspace_id', '>', after.workspace_id).executeTakeFirst();
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
  const batch = skipLocked(
    db,
    db
      .selectFrom('change_events')
      .select('id')
      .where('workspace_id', '=', scope.workspace_id)
      .where('repository', '=', scope.repository)
      .where('received_at', '<', cutoff)
      .limit(limit),
  );
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
      const batch = skipLocked(
        db,
        selectFrom('idempotency_records')
          .select(['principal_id', 'idempotency_key'])
          .where('expires_at', '<=', now)
          .where((w) =>
            w.or([w('state', '=', 'completed'), w.and([w('state', '=', 'in_flight'), w('created_at', '<=', inFlightBefore)])]),
          )
          .limit(limit),
      );
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
      const batch = skipLocked(
        db,
        selectFrom('webhook_deliveries').select(['integration_id', 'delivery_id']).where('expires_at', '<=', now).limit(limit),
      );
      return eb(refTuple('integration_id', 'delivery_id'), 'in', batch.$asTuple('integration_id', 'delivery_id'));
    })
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
