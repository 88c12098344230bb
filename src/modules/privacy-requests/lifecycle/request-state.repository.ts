import type { Expression, ExpressionBuilder, SqlBool, Updateable } from 'kysely';
import type { PrivacyRequestTable } from '../../../db/tables/privacy-request.table.js';
import type { Executor } from '../../../db/executor.js';
import { skipLocked } from '../../../db/locking.js';
import type { DB } from '../../../db/schema.js';
import type { PrivacyRequestRow } from '../../request-model/request-model.js';

/*
 * Every write of a request's state: its status and lease (the queue's claims, the end of an
 * attempt, a transition) and its result. Called by the lifecycle (transition.ts, own-step.ts) and
 * the worker's claim loop; nothing else writes these columns (test/architecture/import-graph.test.ts, "one writer of a request state").
 */

/**
 * The oldest request matching `where`, through the (status, id) index in id order. On PostgreSQL
 * the row is taken `FOR UPDATE SKIP LOCKED`, so concurrent workers never claim the same request.
 */
function oldest(db: Executor, where: (eb: ExpressionBuilder<DB, 'privacy_requests'>) => Expression<SqlBool>) {
  const query = db.selectFrom('privacy_requests').select('id').where(where).orderBy('id').limit(1);
  return skipLocked(db, query);
}

/**
 * Claims the next request to process: the oldest that is `queued` and due (no backoff pending),
 * or `processing` with an expired lease (its worker died). One statement. Each kind is looked up
 * on its own, oldest first through the (status, id) index, and the older of the two is taken: one
 * lookup with an OR made both databases collect every queued request and sort them, so a claim
 * cost grew with the backlog.
 *
 * @returns the claimed row (status `processing`, leased to `owner` until `leaseUntil`), or undefined.
 */
export async function claimNext(
  db: Executor,
  owner: string,
  now: string,
  leaseUntil: string,
): Promise<PrivacyRequestRow | undefined> {
  const due = oldest(db, (eb) =>
    eb.and([eb('status', '=', 'queued'), eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)])]),
  );
  const abandoned = oldest(db, (eb) => eb.and([eb('status', '=', 'processing'), eb('lease_expires_at', '<', now)]));
  const candidates = db
    .selectFrom(due.as('d'))
    .select('d.id')
    .unionAll(db.selectFrom(abandoned.as('a')).select('a.id'));
  const candidate = db.selectFrom(candidates.as('c')).select((eb) => eb.fn.min('c.id').as('id'));
  return db
    .updateTable('privacy_requests')
    .set((eb) => ({
      status: 'processing',
      lease_owner: owner,
      lease_expires_at: leaseUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', candidate)
    .returningAll()
    .executeTakeFirst();
}

/** An update of request `id` that applies only while `owner` holds it in `processing` (its lease). */
function whileHeld(db: Executor, id: string, owner: string) {
  return db
    .updateTable('privacy_requests')
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'processing');
}

/** Extends the lease while the owner still holds it. @returns false when the lease was lost. */
export async function extendLease(
  db: Executor,
  id: string,
  owner: string,
  leaseUntil: string,
  subjectFound?: number,
): Promise<boolean> {
  const result = await whileHeld(db, id, owner)
    .set({ lease_expires_at: leaseUntil, ...(subjectFound === undefined ? {} : { subject_found: subjectFound }) })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Ends an attempt: sets the new status (and fields) only while `owner` still holds the request
 * in `processing`, and clears the lease. @returns the request as stored, or undefined when the
 * owner does not hold it (lease lost, or canceled meanwhile): nothing was written.
 */
export async function finishAttempt(
  db: Executor,
  id: string,
  owner: string,
  fields: Updateable<PrivacyRequestTable>,
): Promise<PrivacyRequestRow | undefined> {
  return whileHeld(db, id, owner)
    .set({ ...fields, lease_owner: null, lease_expires_at: null })
    .returningAll()
    .executeTakeFirst();
}

/**
 * Gives a claimed request back without counting the attempt: `queued` again, unleased, due at
 * once, `attempts` one less. For a worker stopping in the middle of a request (SIGTERM): the next
 * worker takes it at once instead of waiting for the lease to expire. Only while `owner` holds it.
 * @returns false when it does not.
 */
export async function releaseClaim(db: Executor, id: string, owner: string, at: string): Promise<boolean> {
  const result = await whileHeld(db, id, owner)
    .set((eb) => ({
      status: 'queued',
      lease_owner: null,
      lease_expires_at: null,
      attempts: eb('attempts', '-', 1),
      updated_at: at,
    }))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Sets `fields` on the request and returns it as stored.
 * @throws NoResultError when there is no such request.
 */
export async function updateRequest(
  tx: Executor,
  id: string,
  fields: Updateable<PrivacyRequestTable>,
): Promise<PrivacyRequestRow> {
  return tx.updateTable('privacy_requests').set(fields).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** What processing a request produced, as stored: its package and report as JSON text (null: none). */
export interface ResultJson {
  pkg: string | null;
  report: string | null;
}

/** Stores (or replaces) what processing a request produced. */
export async function saveResult(db: Executor, requestId: string, pkg: unknown, report: unknown, at: string): Promise<void> {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  await saveResultJson(db, requestId, { pkg: json(pkg), report: json(report) }, at);
}

/** {@link saveResult} with the package and report already serialized. */
export async function saveResultJson(db: Executor, requestId: string, result: ResultJson, at: string): Promise<void> {
  const row = { request_id: requestId, package: result.pkg, report: result.report, created_at: at };
  await db
    .insertInto('request_results')
    .values(row)
    .onConflict((oc) => oc.column('request_id').doUpdateSet({ package: row.package, report: row.report, created_at: at }))
    .execute();
}

/**
 * Removes what processing a request produced (PRODUCT §2.17: a re-pointed request's answer was
 * about another identity; its next run produces the answer anew, and an erasure step finds no
 * report to resume from).
 */
export async function deleteResult(db: Executor, requestId: string): Promise<void> {
  await db.deleteFrom('request_results').where('request_id', '=', requestId).execute();
}

/**
 * Replaces a request's stored package and report when it completes after its data tasks
 * (PRODUCT §2.9: the systems' part added), as produced at `at`: its package expiry is computed
 * again by the retention sweeper from that time.
 */
export async function replaceResultAtCompletion(db: Executor, requestId: string, result: ResultJson, at: string): Promise<void> {
  await db
    .updateTable('request_results')
    .set({ package: result.pkg, report: result.report, created_at: at, package_expires_at: null })
    .where('request_id', '=', requestId)
    .execute();
}

/**
 * Sets who a request is assigned to (PRODUCT §2.16; null: nobody). Not a change of state: no
 * status, lease or result, so no transition. @returns the request as stored.
 * @throws NoResultError when there is no such request.
 */
export async function setAssignee(tx: Executor, id: string, assignee: string | null, at: string): Promise<PrivacyRequestRow> {
  return tx
    .updateTable('privacy_requests')
    .set({ assignee, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
