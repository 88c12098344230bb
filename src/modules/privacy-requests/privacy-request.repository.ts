import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { PrivacyRequestRow } from '../request-model/request-model.js';

/** A request as filed: every column but those later steps set (the deadline sweep's marks). */
export type NewRequestRow = Omit<
  PrivacyRequestRow,
  'due_soon_notified_at' | 'overdue_notified_at' | 'assignee' | 'subject_found'
>;

/** Every column of `privacy_requests`, in insert order (also the growth bench's bulk seed). */
export const REQUEST_COLUMNS = [
  'id',
  'workspace_id',
  'request_type',
  'scope',
  'subject_provider',
  'subject_id',
  'client_request_id',
  'intake_ref',
  'regulation',
  'received_at',
  'status',
  'status_reason',
  'created_at',
  'due_at',
  'extended_due_at',
  'completed_at',
  'updated_at',
  'attempts',
  'lease_owner',
  'lease_expires_at',
  'next_attempt_at',
  'filed_by',
] as const satisfies readonly (keyof NewRequestRow)[];

const insertUnlessDuplicate = preparedQuery<NewRequestRow, { id: string }>(REQUEST_COLUMNS, (db, row) =>
  db
    .insertInto('privacy_requests')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'client_request_id']).doNothing())
    .returning('id'),
);

/**
 * Inserts a request unless its (workspace_id, client_request_id) is taken.
 * @returns true when inserted, false on that conflict (the database constraint decides).
 */
export async function insertRequestUnlessDuplicate(db: Executor, row: NewRequestRow): Promise<boolean> {
  return (await insertUnlessDuplicate(db, row)).rows.length > 0;
}

/** One request by id, or undefined. */
export async function findRequestById(db: Executor, id: string): Promise<PrivacyRequestRow | undefined> {
  return db.selectFrom('privacy_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The id of the request with this client_request_id in the workspace, or undefined. */
export async function findIdByClientRequestId(
  db: Executor,
  workspaceId: string,
  clientRequestId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('privacy_requests')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('client_request_id', '=', clientRequestId)
    .executeTakeFirst();
  return row?.id;
}

/** The request, locked for this transaction (PostgreSQL `FOR UPDATE`), or undefined. */
export async function lockRequest(tx: Executor, id: string): Promise<PrivacyRequestRow | undefined> {
  return forUpdate(tx, tx.selectFrom('privacy_requests').selectAll().where('id', '=', id)).executeTakeFirst();
}

/**
 * Ids of the workspace's requests waiting in `action_required` for `reason` (`status_reason`),
 * oldest first, at most `limit`.
 */
export async function idsWaitingFor(db: Executor, workspaceId: string, reason: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('privacy_requests')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'action_required')
    .where('status_reason', '=', reason)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
