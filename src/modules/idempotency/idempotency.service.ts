import type { Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import { isPostgres, tryLockKey } from '../../db/locking.js';
import type { DB } from '../../db/schema.js';
import type { Transact } from '../../db/write-batcher.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decideOnExisting, IDEMPOTENCY_TTL_MS } from './idempotency.fns.js';
import * as repo from './idempotency.repository.js';

/** A response as stored for replay: status, Location header (or null) and the JSON body text. */
export interface StoredResponse {
  status: number;
  location: string | null;
  body: string;
}

/** Why an Idempotency-Key cannot be honoured now. */
export class IdempotencyConflict extends Error {
  constructor(readonly reason: 'reused' | 'in_flight') {
    super(`idempotency key ${reason}`);
    this.name = 'IdempotencyConflict';
  }
}

type Outcome = { response: StoredResponse; replayed: boolean };

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
 * with a key runs its effects and stores its response in ONE transaction, so a key is either
 * stored with its complete effects or not at all; the same key and fingerprint within 24 h
 * replays that response; a different fingerprint is a reuse. "In flight" (409) is a transaction
 * with the same key still running: on PostgreSQL a transaction-scoped advisory lock on the key
 * tells; on SQLite the one write lock makes a duplicate wait for the first to commit, and it then
 * replays. An `in_flight` record (written by releases before this design) is honoured, and taken
 * over after its lease.
 */
export function createIdempotencyService(deps: { db: Executor; clock: Clock; transact: Transact }) {
  const { db, clock, transact } = deps;

  /** What an existing record means for this request: a replay, or a conflict (thrown); null: go on. */
  function answerFromExisting(record: repo.IdempotencyRow | undefined, print: string): Outcome | 'take_over' | null {
    if (!record) return null;
    const decision = decideOnExisting(record, print, clock());
    if (decision === 'replay') return { response: storedResponse(record), replayed: true };
    if (decision === 'take_over') return 'take_over';
    throw new IdempotencyConflict(decision);
  }

  /**
   * The effects and the record, in `tx`, which holds the key (its lock on PostgreSQL, the write
   * lock on SQLite). A record stored by someone else since our read surfaces as a unique
   * violation on insert, which undoes it all.
   * @param staleSince - created_at of an expired or abandoned record to replace, if any.
   */
  async function store(
    tx: Transaction<DB>,
    principalId: string,
    key: string,
    print: string,
    staleSince: string | null,
    work: (tx: Transaction<DB>) => Promise<StoredResponse>,
  ): Promise<Outcome> {
    if (staleSince !== null) await repo.deleteRecord(tx, principalId, key, staleSince);
    const now = clock();
    const response = await work(tx);
    await repo.insertCompleted(tx, {
      principal_id: principalId,
      idempotency_key: key,
      fingerprint: print,
      created_at: toTimestamp(now),
      expires_at: toTimestamp(new Date(now.getTime() + IDEMPOTENCY_TTL_MS)),
      response,
    });
    return { response, replayed: false };
  }

  /**
   * SQLite: the record was read outside (a replay never takes the write lock); one transaction
   * stores the key.
   */
  function attempt(
    principalId: string,
    key: string,
    print: string,
    staleSince: string | null,
    work: (tx: Transaction<DB>) => Promise<StoredResponse>,
  ): Promise<Outcome> {
    return transact(async (tx) => {
      if (!(await tryLockKey(tx, idempotencyLockName(principalId, key)))) throw new IdempotencyConflict('in_flight');
      return store(tx, principalId, key, print, staleSince, work);
    });
  }

  /**
   * PostgreSQL: one transaction reads the record and, when there is none, takes the key's lock in
   * the same statement (one round trip instead of a read before the transaction and a lock in
   * it), then stores the key. A replay or conflict writes nothing; a conflict is returned, not
   * thrown, so it does not abort the other units of a write batch, and is thrown after.
   */
  async function attemptInOneTransaction(
    principalId: string,
    key: string,
    print: string,
    work: (tx: Transaction<DB>) => Promise<StoredResponse>,
  ): Promise<Outcome> {
    const lockName = idempotencyLockName(principalId, key);
    const result = await transact(async (tx): Promise<Outcome | IdempotencyConflict['reason']> => {
      const found = await repo.findRecordOrLockKey(tx, principalId, key, lockName);
      if (!found.record) return found.locked ? store(tx, principalId, key, print, null, work) : 'in_flight';
      const decision = decideOnExisting(found.record, print, clock());
      if (decision === 'replay') return { response: storedResponse(found.record), replayed: true };
      if (decision !== 'take_over') return decision;
      if (!(await tryLockKey(tx, lockName))) return 'in_flight';
      return store(tx, principalId, key, print, found.record.created_at, work);
    });
    if (typeof result === 'string') throw new IdempotencyConflict(result);
    return result;
  }

  return {
    /**
     * Runs `work` once per (principal, key, fingerprint).
     *
     * @param work - does the effects inside `tx` and returns the response to store with them.
     * @returns the response and whether it is a replay.
     * @throws IdempotencyConflict (`reused` → 422, `in_flight` → 409); whatever `work` throws
     *   (nothing is stored then, so the client may retry).
     */
    async run(
      principalId: string,
      key: string,
      print: string,
      work: (tx: Transaction<DB>) => Promise<StoredResponse>,
    ): Promise<Outcome> {
      for (let i = 1; ; i++) {
        try {
          if (isPostgres(db)) return await attemptInOneTransaction(principalId, key, print, work);
          // SQLite: a plain read first: replays and conflicts answer without taking the write lock.
          const existing = await repo.findRecord(db, principalId, key);
          const early = answerFromExisting(existing, print);
          if (early && early !== 'take_over') return early;
          return await attempt(principalId, key, print, early === 'take_over' ? existing!.created_at : null, work);
        } catch (error) {
          // Another request stored the same key after our read: read it again.
          if (!isUniqueViolation(error) || i >= ATTEMPTS) throw error;
        }
      }
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
