import type { Executor } from '../../db/executor.js';
import { findColumns } from '../../db/row-match.js';
import { forUpdate } from '../../db/locking.js';
import { multiRowInsert } from '../../db/multi-row-insert.js';
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
  'related_request_id',
  'agent',
  'agent_id',
] as const satisfies readonly (keyof NewRequestRow)[];

const insertRequestRows = multiRowInsert<NewRequestRow, { id: string }>(
  'privacy_requests',
  REQUEST_COLUMNS,
  'on conflict (workspace_id, client_request_id) do nothing returning id',
);

/**
 * Inserts `rows` (a write batch's filings) in one multi-row INSERT (db/multi-row-insert.ts)
 * instead of one statement each, skipping each row whose (workspace_id, client_request_id) is
 * taken, by an earlier request or an earlier row of the same statement (the earlier row wins,
 * as it would with one statement each).
 * @returns the ids of the rows inserted (a skipped row's id is absent).
 */
export async function insertRequestsUnlessDuplicate(db: Executor, rows: readonly NewRequestRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  return new Set((await insertRequestRows(db, rows)).map((row) => row.id));
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
  const row = await findColumns(db, 'privacy_requests', ['id'], {
    workspace_id: workspaceId,
    client_request_id: clientRequestId,
  });
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
