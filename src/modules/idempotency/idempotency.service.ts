import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import { tryLockKey } from '../../db/locking.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Transact } from '../../db/write-batcher.js';
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

function storedResponse(record: repo.IdempotencyRow): StoredResponse {
  return { status: record.response_status ?? 500, location: record.response_location, body: record.response_body ?? '{}' };
}

/** The name under which a transaction storing (principal, key) holds its lock (see `tryLockKey`). */
export function idempotencyLockName(principalId: string, key: string): string {
  return `idempotency:${principalId}:${key}`;
}

/** How many times a key is tried when another process stores it between our read and our insert. */
const ATTEMPTS = 3;

/**
 * Idempotency-Key handling (IETF draft-ietf-httpapi-idempotency-key-header): the first request
 * with a key runs its effects and stores its outcome in ONE unit of work, so a key is either
 * stored with its complete effects or not at all; the same key and fingerprint within 24 h
 * replays that outcome; a different fingerprint is a reuse. "In flight" (409) is a transaction
 * with the same key still running: on PostgreSQL a transaction-scoped advisory lock on the key
 * tells; on SQLite the one write lock makes a duplicate wait for the first to commit, and it then
 * replays. An `in_flight` record (written by releases before this design) is honoured, and taken
 * over after its lease.
 *
 * One algorithm on both databases; the repository picks each step's statement per dialect
 * (`peekRecord`, `findRecordOrLockKey`).
 */
export function createIdempotencyService(deps: { db: Executor; clock: Clock; transact: Transact }) {
  const { db, clock, transact } = deps;

  /** What an existing record means: a replay (its stored response), or a reason it cannot be honoured. */
  function decide(record: repo.IdempotencyRow, print: string): StoredResponse | 'take_over' | IdempotencyConflict['reason'] {
    const decision = decideOnExisting(record, print, clock());
    return decision === 'replay' ? storedResponse(record) : decision;
  }

  /** The effects and the record, in `unit`, which holds the key. @param staleSince - created_at of a record to replace. */
  async function store<R>(
    unit: UnitOfWork,
    principalId: string,
    key: string,
    print: string,
    staleSince: string | null,
    work: (unit: UnitOfWork) => Promise<R>,
    codec: RecordCodec<R>,
  ): Promise<{ outcome: R; replayed: false }> {
    if (staleSince !== null) await repo.deleteRecord(unit.tx, principalId, key, staleSince);
    const now = clock();
    const outcome = await work(unit);
    await repo.insertCompleted(unit.tx, {
      principal_id: principalId,
      idempotency_key: key,
      fingerprint: print,
      created_at: toTimestamp(now),
      expires_at: toTimestamp(new Date(now.getTime() + IDEMPOTENCY_TTL_MS)),
      response: codec.encode(outcome),
    });
    return { outcome, replayed: false };
  }

  /**
   * One try: a peek at the record outside any transaction (answers a replay without the write
   * lock where reads are cheap), then one unit of work that reads the record or takes the key's
   * lock, and stores the key with the effects. A replay or conflict writes nothing; a conflict is
   * returned from the unit, not thrown, so it does not abort the other units of a write batch.
   */
  async function attempt<R>(
    principalId: string,
    key: string,
    print: string,
    work: (unit: UnitOfWork) => Promise<R>,
    codec: RecordCodec<R>,
  ): Promise<{ outcome: R; replayed: boolean }> {
    const peeked = await repo.peekRecord(db, principalId, key);
    const early = peeked && decide(peeked, print);
    if (early && early !== 'take_over') {
      if (typeof early === 'string') throw new IdempotencyConflict(early);
      return { outcome: codec.decode(early), replayed: true };
    }
    const lockName = idempotencyLockName(principalId, key);
    const result = await transact(async (unit) => {
      const found = await repo.findRecordOrLockKey(unit.tx, principalId, key, lockName);
      if (!found.record) return found.locked ? store(unit, principalId, key, print, null, work, codec) : 'in_flight';
      const decision = decide(found.record, print);
      if (decision !== 'take_over') return decision;
      if (!(await tryLockKey(unit.tx, lockName))) return 'in_flight';
      return store(unit, principalId, key, print, found.record.created_at, work, codec);
    });
    if (typeof result === 'string') throw new IdempotencyConflict(result);
    if ('status' in result) return { outcome: codec.decode(result), replayed: true };
    return result;
  }

  return {
    /**
     * Runs `work` once per (principal, key, fingerprint), as one unit of work with the key's record.
     *
     * @param work - does the effects in its unit of work and returns the outcome to store with them.
     * @param codec - how the outcome is kept in the record and read back for a replay.
     * @returns the outcome (the stored one, decoded, for a replay) and whether it is a replay.
     * @throws IdempotencyConflict (`reused`, `in_flight`); whatever `work` throws
     *   (nothing is stored then, so the client may retry).
     */
    async run<R>(
      principalId: string,
      key: string,
      print: string,
      work: (unit: UnitOfWork) => Promise<R>,
      codec: RecordCodec<R>,
    ): Promise<{ outcome: R; replayed: boolean }> {
      for (let i = 1; ; i++) {
        try {
          return await attempt(principalId, key, print, work, codec);
        } catch (error) {
          // Another request stored the same key after our read: read it again.
          if (!isUniqueViolation(error) || i >= ATTEMPTS) throw error;
        }
      }
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
