import type { Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { DB } from '../../db/schema.js';
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

/**
 * Idempotency-Key handling (IETF draft-ietf-httpapi-idempotency-key-header): the first request
 * with a key claims it, runs, and stores its response in the same transaction as its effects;
 * the same key and fingerprint within 24 h replays that response; a different fingerprint is a
 * reuse; a claim still running is in flight. A claim whose process died is taken over after
 * its lease.
 */
export function createIdempotencyService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;

  /** Claims the key. @returns a stored response to replay, or the claim's created_at. */
  async function claim(principalId: string, key: string, print: string): Promise<StoredResponse | string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock();
      const createdAt = toTimestamp(now);
      const expiresAt = toTimestamp(new Date(now.getTime() + IDEMPOTENCY_TTL_MS));
      try {
        await repo.insertInFlight(db, {
          principal_id: principalId,
          idempotency_key: key,
          fingerprint: print,
          created_at: createdAt,
          expires_at: expiresAt,
        });
        return createdAt;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const existing = await repo.findRecord(db, principalId, key);
      if (!existing) continue;
      const decision = decideOnExisting(existing, print, now);
      if (decision === 'take_over') await repo.deleteRecord(db, principalId, key, existing.created_at);
      else if (decision === 'replay')
        return {
          status: existing.response_status ?? 500,
          location: existing.response_location,
          body: existing.response_body ?? '{}',
        };
      else throw new IdempotencyConflict(decision);
    }
    throw new IdempotencyConflict('in_flight');
  }

  return {
    /**
     * Runs `work` once per (principal, key, fingerprint).
     *
     * @param work - does the effects inside `tx` and returns the response to store.
     * @returns the response and whether it is a replay.
     * @throws IdempotencyConflict (`reused` → 422, `in_flight` → 409); whatever `work` throws,
     *   after releasing the claim so that the client may retry.
     */
    async run(
      principalId: string,
      key: string,
      print: string,
      work: (tx: Transaction<DB>) => Promise<StoredResponse>,
    ): Promise<{ response: StoredResponse; replayed: boolean }> {
      const claimed = await claim(principalId, key, print);
      if (typeof claimed !== 'string') return { response: claimed, replayed: true };
      try {
        const response = await db.transaction().execute(async (tx) => {
          const result = await work(tx);
          await repo.completeRecord(tx, principalId, key, result);
          return result;
        });
        return { response, replayed: false };
      } catch (error) {
        await repo.deleteRecord(db, principalId, key, claimed).catch(() => undefined);
        throw error;
      }
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
