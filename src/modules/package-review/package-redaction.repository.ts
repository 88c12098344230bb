import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { PackageRedactionTable } from '../../db/tables/package-redaction.table.js';

/** A stored redaction (PRODUCT §2.20). */
export type PackageRedactionRow = Selectable<PackageRedactionTable>;

/** Stores a redaction. */
export async function insertRedaction(tx: Executor, row: PackageRedactionRow): Promise<void> {
  await tx.insertInto('package_redactions').values(row).execute();
}

/** The redactions of a request's package, oldest first (ids are ULIDs). */
export async function listRedactions(db: Executor, requestId: string): Promise<PackageRedactionRow[]> {
  return db.selectFrom('package_redactions').selectAll().where('request_id', '=', requestId).orderBy('id').execute();
}

/**
 * Removes redaction `id` of request `requestId`. @returns the removed row, or undefined when the
 * request has no such redaction.
 */
export async function deleteRedaction(tx: Executor, requestId: string, id: string): Promise<PackageRedactionRow | undefined> {
  const row = await tx
    .selectFrom('package_redactions')
    .selectAll()
    .where('request_id', '=', requestId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (row) await tx.deleteFrom('package_redactions').where('id', '=', id).execute();
  return row;
}
