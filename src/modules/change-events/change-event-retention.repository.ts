import type { Executor } from '../../db/executor.js';
import { skipLocked } from '../../db/locking.js';

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
 * but walked the pairs slower on SQLite: bench/README.md, "Measured choices".)
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
