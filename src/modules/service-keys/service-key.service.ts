import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import * as repo from './service-key.repository.js';
import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';

/** Keys the service needs at run time. Never logged, never returned by the API. */
export interface ServiceKeys {
  /** HMAC key for keyed pseudonyms and tombstones. */
  readonly pseudonymKey: string;
  /** Key material for encrypting integration secrets. */
  readonly secretsKey: string;
}

/**
 * A key: `configured` when set, else the one stored in `service_keys` under `name`, generated
 * (32 random bytes, base64url) on first use. Concurrent first starts agree: the insert ignores a
 * conflict and everyone reads the stored row.
 */
export async function ensureServiceKey(db: Executor, clock: Clock, name: string, configured: string | null): Promise<string> {
  if (configured !== null) return configured;
  await repo.insertKeyUnlessPresent(db, { name, value: randomBytes(32).toString('base64url'), created_at: toTimestamp(clock()) });
  return repo.keyValue(db, name);
}

/**
 * Loads (or, on first start, generates and stores) every service key. `PSEUDONYM_KEY` and
 * `SECRETS_KEY` override the stored ones; set them to keep keys out of the database.
 */
export async function loadServiceKeys(db: Executor, clock: Clock, config: Config): Promise<ServiceKeys> {
  return {
    pseudonymKey: await ensureServiceKey(db, clock, 'pseudonym_key', config.pseudonymKey),
    secretsKey: await ensureServiceKey(db, clock, 'secrets_key', config.secretsKey),
  };
}
