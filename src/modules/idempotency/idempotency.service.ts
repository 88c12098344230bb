import type { DeferredWrites, UnitOfWork } from '../../db/unit-of-work.js';
import type { Executor } from '../../db/executor.js';
import { RetryInNextBatch } from '../../db/write-batcher.js';
import { tryLockKey } from '../../db/locking.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decideOnExisting, IDEMPOTENCY_TTL_MS } from './idempotency.fns.js';
import * as repo from './idempotency.repository.js';

/**
 * What the record of a key keeps for replay: a status, a `Location` (or null) and a body, as
 * text. The caller decides what they mean through a {@link RecordCodec}.
 */
export interface StoredResponse {
  status: number;
  location: string | null;
  body: string;
}

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
  constructor(readonly reason: 'reused' | 'in_flight') {
    super(`idempotency key ${reason}`);
    this.name = 'IdempotencyConflict';
  }
}

/** A key as seen by one request: its principal, the key itself and the request's fingerprint. */
export interface KeyUse {
  principalId: string;
  key: string;
  fingerprint: string;
}

/**
 * What {@link IdempotencyService.claim} found in the unit of work: the key is this unit's to
 * store (`claimed`, replacing an expired or abandoned record created at `staleSince`), or the
 * stored response to replay, or a conflict.
 */
export type KeyClaim =
  | { kind: 'claimed'; staleSince: string | null }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict'; reason: IdempotencyConflict['reason'] };

/** How many times a filing is tried when another process stores its key between our read and our insert. */
export const KEY_ATTEMPTS = 3;

function storedResponse(record: repo.IdempotencyRow): StoredResponse {
  return { status: record.response_status ?? 500, location: record.response_location, body: record.response_body ?? '{}' };
}

/** The name under which a transaction storing (principal, key) holds its lock (see `tryLockKey`). */
export function idempotencyLockName(principalId: string, key: string): string {
  return `idempotency:${principalId}:${key}`;
}

/** A key's record as deferred to its unit's commit: the response is built then (`response()`). */
interface PendingRecord {
  use: KeyUse;
  /** The `created_at` of an expired or abandoned record this one replaces, or null. */
  staleSince: string | null;
  createdAt: string;
  expiresAt: string;
  /** Called at the flush, after the kinds of a lower order (the filed rows) were written. */
  response: () => StoredResponse;
}

/**
 * The keys' records as a deferred write (db/unit-of-work.ts): every record a write batch stores
 * goes in one multi-row INSERT right before COMMIT, after the rows whose outcome it keeps. The
 * replaced stale records (rare) are deleted one by one first.
 */
const keyRecords: DeferredWrites<PendingRecord> = {
  name: 'idempotency records',
  async flush(tx, records) {
    for (const r of records) {
      if (r.staleSince !== null) await repo.deleteRecord(tx, r.use.principalId, r.use.key, r.staleSince);
    }
    await repo.insertCompletedRecords(
      tx,
      records.map((r) => ({
        principal_id: r.use.principalId,
        idempotency_key: r.use.key,
        fingerprint: r.use.fingerprint,
        created_at: r.createdAt,
        expires_at: r.expiresAt,
        response: r.response(),
      })),
    );
  },
};

/**
 * Idempotency-Key handling (IETF draft-ietf-httpapi-idempotency-key-header) as three steps a
 * writing service method takes around its own unit of work:
 *
 * 1. `peek` before the unit: on SQLite a plain read answers a replay or a conflict without
 *    joining a write batch; on PostgreSQL nothing (the claim reads in the same statement as it locks).
 * 2. `claim` first in the unit: the record, or the key's lock (PostgreSQL: a transaction-scoped
 *    advisory lock, so a second request with the key while the first runs is `in_flight`; SQLite:
 *    the one write lock makes it wait and then replay).
 * 3. `record` last in the unit: the record with the outcome, written at the unit's commit (one
 *    multi-row INSERT per write batch), so a key is stored with its complete effects or not at
 *    all. The claim's lock keeps other processes from storing the key meanwhile (PostgreSQL; on
 *    SQLite the one write lock); were one to (a release without the lock), the unique violation
 *    fails the batch at its commit and the filing's caller tries again (`KEY_ATTEMPTS`).
 *
 * Same key and fingerprint within 24 h replays; a different fingerprint is `reused`; an
 * `in_flight` record written by releases before this design is honoured, and taken over after its lease.
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
     * Step 2, first in the unit of work: see {@link KeyClaim}. Writes nothing.
     * @throws RetryInNextBatch when an earlier unit of the same write batch stores this key at
     *   its commit: the batcher runs this unit again after it, when the record is there to read.
     */
    async claim(unit: UnitOfWork, use: KeyUse): Promise<KeyClaim> {
      if (unit.pending(keyRecords).some((r) => r.use.principalId === use.principalId && r.use.key === use.key)) {
        throw new RetryInNextBatch('an earlier unit of this batch stores the same Idempotency-Key');
      }
      const lockName = idempotencyLockName(use.principalId, use.key);
      const found = await repo.findRecordOrLockKey(unit.tx, use.principalId, use.key, lockName);
      if (!found.record) return found.locked ? { kind: 'claimed', staleSince: null } : { kind: 'conflict', reason: 'in_flight' };
      const claim = decide(found.record, use);
      if (claim.kind === 'claimed' && !(await tryLockKey(unit.tx, lockName))) return { kind: 'conflict', reason: 'in_flight' };
      return claim;
    },

    /**
     * Step 3, last in the unit of work: stores the key's record at the unit's commit, with the
     * response `response()` builds then (after the rows of lower-order deferred kinds, whose
     * outcome it may keep, were written). Its 24 h count from now.
     */
    record(unit: UnitOfWork, use: KeyUse, claim: { staleSince: string | null }, response: () => StoredResponse): void {
      const now = clock();
      unit.defer(keyRecords, {
        use,
        staleSince: claim.staleSince,
        createdAt: toTimestamp(now),
        expiresAt: toTimestamp(new Date(now.getTime() + IDEMPOTENCY_TTL_MS)),
        response,
      });
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
