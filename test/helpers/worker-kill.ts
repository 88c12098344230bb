/**
 * Killing a `privacyctl worker` process in the middle of a request, deterministically and without
 * any hook in the service: freeze it (SIGSTOP), look in the job table for an unfinished request
 * it holds under an unexpired lease, and SIGKILL it only then; otherwise let it go on (SIGCONT)
 * and try again.
 */
import assert from 'node:assert/strict';
import type { Database } from '../../src/db/database.js';
import type { Proc } from './cluster.js';

/** The request a worker process holds right now (`processing`, leased to it, lease unexpired), or undefined. */
export async function heldRequest(db: Database, pid: number): Promise<{ id: string; attempts: number } | undefined> {
  // Lease owners are `host:pid:random` (src/jobs/worker.ts).
  return db.db
    .selectFrom('privacy_requests')
    .select(['id', 'attempts'])
    .where('status', '=', 'processing')
    .where('lease_owner', 'like', `%:${pid}:%`)
    .where('lease_expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
}

/**
 * Tries up to `tries` times to catch `worker` mid-request and kill it with SIGKILL.
 *
 * A try freezes the process; when it holds a request it is killed, and the request is the
 * victim if it is still unfinished after the death (its last commit may have landed just before
 * the freeze took hold: then it does not count and the caller tries with another worker).
 *
 * @param refill - called between tries to keep work queued (e.g. file more requests when idle).
 * @returns the id of the request the worker died holding, or null when the worker was killed
 *   holding a request that had committed meanwhile, or when no try caught it.
 */
export async function killMidRequest(
  db: Database,
  worker: Proc,
  refill: () => Promise<void>,
  tries = 200,
): Promise<string | null> {
  for (let i = 0; i < tries; i++) {
    assert.ok(worker.child.kill('SIGSTOP'), 'could not stop the worker');
    const held = await heldRequest(db, worker.pid);
    if (held) {
      worker.child.kill('SIGKILL');
      await worker.exited;
      const after = await db.db
        .selectFrom('privacy_requests')
        .select('status')
        .where('id', '=', held.id)
        .executeTakeFirstOrThrow();
      return after.status === 'processing' ? held.id : null;
    }
    worker.child.kill('SIGCONT');
    await refill();
    await new Promise((resolve) => setTimeout(resolve, 5 + (i % 7) * 3));
  }
  return null;
}
