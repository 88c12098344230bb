import type { Executor } from '../../db/executor.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decideOnExisting, IDEMPOTENCY_TTL_MS } from './idempotency.fns.js';
import * as repo from './idempotency.repository.js';
import type { ClaimAtCommit, ConflictReason, KeyClaim, KeyUse, StoredResponse } from './idempotency.types.js';
import { claimAtCommit, recordAtCommit } from './key-claims.js';

export type { ClaimAtCommit, KeyClaim, KeyUse, StoredResponse } from './idempotency.types.js';
export { idempotencyLockName } from './key-claims.js';

/**
 * How a caller's outcome is kept in its key's record and read back for a replay. Records are
 * kept as the bytes of the first answer (so a replay across an upgrade answers the same), which
 * makes the codec the one place that knows that format.
 */
export interface RecordCodec<R> {
  encode(outcome: R): StoredResponse;
  decode(record: StoredResponse): R;
}

/** Why an Idempotency-Key cannot be honoured now. */
export class IdempotencyConflict extends Error {
  constructor(readonly reason: ConflictReason) {
    super(`idempotency key ${reason}`);
    this.name = 'IdempotencyConflict';
  }
}

/** How many times a filing is tried when another process stores its key between our read and our insert. */
export const KEY_ATTEMPTS = 3;

function storedResponse(record: repo.IdempotencyRow): StoredResponse {
  return { status: record.response_status ?? 500, location: record.response_location, body: record.response_body ?? '{}' };
}

/**
 * Idempotency-Key handling (IETF draft-ietf-httpapi-idempotency-key-header) as three steps a
 * writing service method takes around its own unit of work:
 *
 * 1. `peek` before the unit: on SQLite a plain read answers a replay or a conflict without
 *    joining a write batch; on PostgreSQL nothing (the claim reads in the same statement as it locks).
 * 2. `claim` first in the unit: defers the key's claim to the unit's commit, where every key of
 *    the write batch is read, and locked when it has no record, at once (PostgreSQL: a
 *    transaction-scoped advisory lock, so a second request with the key while the first runs is
 *    `in_flight`; SQLite: the one write lock makes it wait and then replay). The unit adds its
 *    effects through the claim's unit: they are written only if the key is claimed.
 * 3. `record` last in the unit: the record with the outcome, written at the unit's commit (one
 *    multi-row INSERT per write batch), so a key is stored with its complete effects or not at
 *    all. The claim's lock keeps other processes from storing the key meanwhile (PostgreSQL; on
 *    SQLite the one write lock); were one to (a release without the lock), the unique violation
 *    fails the batch at its commit and the filing's caller tries again (`KEY_ATTEMPTS`).
 *
 * After the commit, the claim's `outcome()` says whether the unit's effects were stored or the
 * key's stored response is to be replayed (or a conflict answered). Same key and fingerprint
 * within 24 h replays; a different fingerprint is `reused`; an `in_flight` record written by
 * releases before this design is honoured, and taken over after its lease.
 */
export function createIdempotencyService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;

  function decide(record: repo.IdempotencyRow, use: KeyUse): KeyClaim {
    const decision = decideOnExisting(record, use.fingerprint, clock());
    if (decision === 'replay') return { kind: 'replay', response: storedResponse(record) };
    if (decision === 'take_over') return { kind: 'claimed', staleSince: record.created_at };
    return { kind: 'conflict', reason: decision };
  }

  return {
    /**
     * Step 1, outside any transaction.
     * @returns the stored response to replay, or null to go on with a unit of work.
     * @throws IdempotencyConflict (`reused`, `in_flight`).
     */
    async peek(use: KeyUse): Promise<StoredResponse | null> {
      const record = await repo.peekRecord(db, use.principalId, use.key);
      const found = record && decide(record, use);
      if (!found || found.kind === 'claimed') return null;
      if (found.kind === 'conflict') throw new IdempotencyConflict(found.reason);
      return found.response;
    },

    /**
     * Step 2, first in the unit of work: claims `use`'s key at the unit's commit (key-claims.ts).
     * Sends no statement now; the same key twice in one batch is looked up once, and the later
     * use replays the first's response.
     */
    claim(unit: UnitOfWork, use: KeyUse): ClaimAtCommit {
      return claimAtCommit(unit, use, (record) => decide(record, use));
    },

    /**
     * Step 3, last in the unit of work: stores the key's record at the unit's commit, if the key
     * was claimed then, with the response `response()` builds (after the rows of lower-order
     * deferred kinds, whose outcome it may keep, were written). Its 24 h count from now.
     */
    record(claim: ClaimAtCommit, response: () => StoredResponse): void {
      const now = clock();
      recordAtCommit(claim, toTimestamp(now), toTimestamp(new Date(now.getTime() + IDEMPOTENCY_TTL_MS)), response);
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
