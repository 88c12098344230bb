import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { IdempotencyTable } from './idempotency.table.js';

export type IdempotencyRow = Selectable<IdempotencyTable>;

const RECORD_COLUMNS = [
  'principal_id',
  'idempotency_key',
  'fingerprint',
  'state',
  'response_status',
  'response_location',
  'response_body',
  'created_at',
  'expires_at',
] as const;

const insertRecord = preparedQuery<IdempotencyRow, never>(RECORD_COLUMNS, (db, row) =>
  db.insertInto('idempotency_records').values(row),
);

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
  await insertRecord(db, {
    ...key,
    state: 'completed',
    response_status: response.status,
    response_location: response.location,
    response_body: response.body,
  });
}

const selectRecord = preparedQuery<{ principal_id: string; idempotency_key: string }, IdempotencyRow>(
  ['principal_id', 'idempotency_key'],
  (db, p) =>
    db
      .selectFrom('idempotency_records')
      // Named columns, not `*`: a prepared statement's result type must not change under it.
      .select(RECORD_COLUMNS)
      .where('principal_id', '=', p.principal_id)
      .where('idempotency_key', '=', p.idempotency_key),
);

/** The record for (principal, key), or undefined. */
export async function findRecord(db: Executor, principalId: string, key: string): Promise<IdempotencyRow | undefined> {
  return (await selectRecord(db, { principal_id: principalId, idempotency_key: key })).rows[0];
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
