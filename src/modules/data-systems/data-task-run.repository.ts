// A run of a data task the service executes itself (src/jobs/task-runner.ts): claiming a task
// under a lease, extending it, giving the task back or retrying it later, and what a run keeps
// while it goes (its progress, the identities it needs).
import { skipLocked } from '../../db/locking.js';
import type { Executor } from '../../db/executor.js';
import type { DataTaskRow } from './data-task.repository.js';

/**
 * Claims the oldest pending task of one of `executors` (kinds the service runs itself) that is
 * due (no backoff pending) and not leased (or its lease expired: its runner died): leased to
 * `owner` until `leaseUntil`, `attempts` counted. One statement; on PostgreSQL the candidate is
 * taken `FOR UPDATE SKIP LOCKED`, so any number of workers claim each task once.
 * @returns the claimed task, or undefined.
 */
export async function claimRunnableTask(
  db: Executor,
  executors: readonly string[],
  owner: string,
  now: string,
  leaseUntil: string,
): Promise<DataTaskRow | undefined> {
  if (executors.length === 0) return undefined;
  const candidate = skipLocked(
    db,
    db
      .selectFrom('data_tasks')
      .select('id')
      .where('status', '=', 'pending')
      .where('executor', 'in', [...executors])
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
      .orderBy('id')
      .limit(1),
  );
  return db
    .updateTable('data_tasks')
    .set((eb) => ({ lease_owner: owner, lease_expires_at: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', db.selectFrom(candidate.as('c')).select('c.id'))
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** An update of a task that applies only while `owner` holds it, pending. */
function whileRunning(db: Executor, id: string, owner: string) {
  return db.updateTable('data_tasks').where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'pending');
}

/** Extends a runner's lease while it holds the task. @returns false when it lost it. */
export async function extendTaskLease(db: Executor, id: string, owner: string, leaseUntil: string): Promise<boolean> {
  const result = await whileRunning(db, id, owner).set({ lease_expires_at: leaseUntil }).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A claimed task that cannot run yet (its correction request still waits for the corrected
 * values): given back unleased, due at `dueAt`, the claim not counted as an attempt.
 * @returns false when `owner` no longer holds it.
 */
export async function putTaskBack(db: Executor, id: string, owner: string, dueAt: string, at: string): Promise<boolean> {
  const result = await whileRunning(db, id, owner)
    .set((eb) => ({
      lease_owner: null,
      lease_expires_at: null,
      next_attempt_at: dueAt,
      attempts: eb('attempts', '-', 1),
      updated_at: at,
    }))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A failed run to try again after a backoff: unleased, due at `nextAttemptAt`, while `owner`
 * still holds it. @returns false when it does not.
 */
export async function retryTaskLater(
  db: Executor,
  id: string,
  owner: string,
  nextAttemptAt: string,
  at: string,
): Promise<boolean> {
  const result = await whileRunning(db, id, owner)
    .set({ lease_owner: null, lease_expires_at: null, next_attempt_at: nextAttemptAt, updated_at: at })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Keeps what a run of a pending task has done so far (PRODUCT §2.17: a resumed erasure reports all
 * it did): counts only, JSON. @returns false when the task is no longer pending.
 */
export async function setTaskProgress(db: Executor, id: string, progress: string): Promise<boolean> {
  const updated = await db
    .updateTable('data_tasks')
    .set({ run_progress: progress })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Keeps a task's identities for its run (sealed by the caller), in the unit that creates it. */
export async function setTaskIdentities(db: Executor, id: string, sealed: string): Promise<void> {
  await db.updateTable('data_tasks').set({ identities_ciphertext: sealed }).where('id', '=', id).execute();
}
