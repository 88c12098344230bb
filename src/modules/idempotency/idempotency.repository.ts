import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { IdempotencyTable } from './idempotency.table.js';

export type IdempotencyRow = Selectable<IdempotencyTable>;

/**
 * Inserts a `completed` record with its response, in the transaction that made the effects.
 * @throws a unique violation when the (principal, key) exists.
 */
export async function insertCompleted(
  db: Executor,
  row: Pick<IdempotencyRow, 'principal_id' | 'idempotency_key' | 'fingerprint' | 'created_at' | 'expires_at'> & {
    response: { status: number; location: string | null; body: string };
  },
): Promise<void> {
  const { response, ...key } = row;
  await db
    .insertInto('idempotency_records')
    .values({
      ...key,
      state: 'completed',
      response_status: response.status,
      response_location: response.location,
      response_body: response.body,
    })
    .execute();
}

/** The record for (principal, key), or undefined. */
export async function findRecord(db: Executor, principalId: string, key: string): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('principal_id', '=', principalId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Deletes the record if it is still the one created at `createdAt` (so a newer claim survives). */
export async function deleteRecord(db: Executor, principalId: string, key: string, createdAt: string): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('principal_id', '=', principalId)
    .where('idempotency_key', '=', key)
    .where('created_at', '=', createdAt)
    .execute();
}
