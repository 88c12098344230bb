import { randomBytes } from 'node:crypto';
import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';

/**
 * The key for keyed pseudonyms (HMAC-SHA-256): `configured` when `PSEUDONYM_KEY` is set, else the
 * one stored in `service_keys`, generated (32 random bytes, base64url) on first start. Concurrent
 * first starts agree: the insert ignores a conflict and everyone reads the stored row.
 *
 * @returns the key text.
 */
export async function ensurePseudonymKey(db: Executor, clock: Clock, configured: string | null): Promise<string> {
  if (configured !== null) return configured;
  await db
    .insertInto('service_keys')
    .values({ name: 'pseudonym_key', value: randomBytes(32).toString('base64url'), created_at: toTimestamp(clock()) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('service_keys').select('value').where('name', '=', 'pseudonym_key').executeTakeFirstOrThrow();
  return row.value;
}
