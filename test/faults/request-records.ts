/**
 * "Nothing half-written" for privacy-request creates. A create writes, for one Idempotency-Key:
 * an `idempotency_records` claim (`in_flight`, committed first), then in one transaction the
 * `privacy_requests` row (which is also the worker's job: the table is the queue), its
 * `privacy_request.created` audit entry, and the idempotency record turned `completed` with the
 * stored response. These helpers read those rows back and check they are all there or all absent.
 */
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';
import { type CreateAttempt, type Outcome, sendCreate } from './fault-load.js';

/** How a create attempt ended up in the database. */
export type StoredState =
  /** request row, completed idempotency record naming it, and one created-audit entry */
  | 'complete'
  /** none of them */
  | 'absent'
  /** only an `in_flight` idempotency claim: the claim committed, the create's transaction did not */
  | 'orphan_claim';

/**
 * Reads the rows of `attempt` and classifies them.
 * @throws AssertionError for any other combination (a partial record), naming what is missing.
 */
export async function storedState(db: Kysely<DB>, attempt: CreateAttempt): Promise<{ state: StoredState; id: string | null }> {
  const request = await db
    .selectFrom('privacy_requests')
    .select(['id', 'status'])
    .where('client_request_id', '=', attempt.clientRequestId)
    .executeTakeFirst();
  const record = await db
    .selectFrom('idempotency_records')
    .select(['state', 'response_status', 'response_body'])
    .where('idempotency_key', '=', attempt.key)
    .executeTakeFirst();
  if (!request) {
    if (!record) return { state: 'absent', id: null };
    assert.equal(record.state, 'in_flight', `${attempt.key}: a completed idempotency record without its privacy request`);
    assert.equal(record.response_body, null, `${attempt.key}: an in-flight claim with a stored response`);
    return { state: 'orphan_claim', id: null };
  }
  assert.ok(record, `${attempt.key}: privacy request ${request.id} without its idempotency record`);
  assert.equal(record.state, 'completed', `${attempt.key}: privacy request stored, idempotency record still in flight`);
  assert.equal(record.response_status, 202);
  assert.equal(
    (JSON.parse(record.response_body ?? '{}') as { id?: string }).id,
    request.id,
    `${attempt.key}: stored response names another request`,
  );
  const audits = await db
    .selectFrom('audit_events')
    .select('id')
    .where('action', '=', 'privacy_request.created')
    .where('target_id', '=', request.id)
    .execute();
  assert.equal(audits.length, 1, `${attempt.key}: privacy request ${request.id} has ${audits.length} created-audit entries`);
  return { state: 'complete', id: request.id };
}

/** What {@link checkCreates} found: attempts by stored state. */
export interface CreateCheck {
  complete: CreateAttempt[];
  absent: CreateAttempt[];
  orphanClaims: CreateAttempt[];
}

/**
 * Checks every create outcome: a 202 is stored completely under the id it answered; any other
 * outcome is complete, absent or an orphan claim (never partial). Also checks that the database
 * holds no privacy request and no created-audit entry beyond these attempts.
 */
export async function checkCreates(db: Kysely<DB>, outcomes: Outcome[]): Promise<CreateCheck> {
  const result: CreateCheck = { complete: [], absent: [], orphanClaims: [] };
  for (const outcome of outcomes) {
    if (!outcome.attempt) continue;
    const { state, id } = await storedState(db, outcome.attempt);
    if (outcome.answer?.status === 202) {
      assert.equal(state, 'complete', `${outcome.attempt.key} was answered 202 but is ${state}`);
      assert.equal((outcome.answer.body as { id: string }).id, id);
    }
    if (state === 'complete') result.complete.push(outcome.attempt);
    else if (state === 'absent') result.absent.push(outcome.attempt);
    else result.orphanClaims.push(outcome.attempt);
  }
  const requests = await db
    .selectFrom('privacy_requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const created = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('action', '=', 'privacy_request.created')
    .executeTakeFirstOrThrow();
  assert.equal(Number(requests.n), result.complete.length, 'privacy requests in the database that no attempt accounts for');
  assert.equal(Number(created.n), result.complete.length, 'created-audit entries without their privacy request');
  return result;
}

/**
 * A retry with the same Idempotency-Key: a stored create replays its response; an absent one is
 * filed now; one that left an orphan in-flight claim answers 409 + Retry-After until the claim's
 * 60 s lease ends (see docs/operations.md "Failure behaviour").
 */
export async function assertRetries(url: string, auth: string, check: CreateCheck): Promise<void> {
  for (const attempt of check.complete) {
    const answer = await sendCreate(url, auth, attempt);
    assert.equal(answer.status, 202);
    assert.equal(answer.replayed, true, `${attempt.key}: a stored create was not replayed`);
  }
  for (const attempt of check.absent) {
    const answer = await sendCreate(url, auth, attempt);
    assert.equal(answer.status, 202, `${attempt.key}: retry of an absent create answered ${answer.status}`);
    assert.equal(answer.replayed, false);
  }
  for (const attempt of check.orphanClaims) {
    const answer = await sendCreate(url, auth, attempt);
    assert.equal(answer.status, 409, `${attempt.key}: retry over an orphan claim answered ${answer.status}`);
    assert.ok(answer.retryAfter);
  }
}
