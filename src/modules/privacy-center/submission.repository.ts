import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import type { PrivacyCenterSubmissionTable } from '../../db/tables/privacy-center.table.js';

export type SubmissionRow = Selectable<PrivacyCenterSubmissionTable>;

const COLUMNS = [
  'id',
  'workspace_id',
  'request_type',
  'email',
  'code_hash',
  'code_expires_at',
  'attempts_left',
  'submitted_at',
  'verified_at',
  'request_id',
  'opt_in_kinds',
] as const;

/** Stores a new submission. */
export async function insertSubmission(db: Executor, row: SubmissionRow): Promise<void> {
  await db.insertInto('privacy_center_submissions').values(row).execute();
}

/** The submission `id` of `workspaceId`, locked for update (PostgreSQL; SQLite's writer is alone), or undefined. */
export async function lockSubmission(db: Executor, workspaceId: string, id: string): Promise<SubmissionRow | undefined> {
  return forUpdate(
    db,
    db.selectFrom('privacy_center_submissions').select(COLUMNS).where('id', '=', id).where('workspace_id', '=', workspaceId),
  ).executeTakeFirst();
}

/** Sets what a code attempt changed. */
export async function updateSubmission(
  db: Executor,
  id: string,
  change: { attempts_left?: number; verified_at?: string; request_id?: string },
): Promise<void> {
  await db.updateTable('privacy_center_submissions').set(change).where('id', '=', id).execute();
}

/** Deletes up to `limit` submissions made before `before` (ISO 8601). @returns how many. */
export async function deleteSubmissionsBefore(db: Executor, before: string, limit: number): Promise<number> {
  const ids = db.selectFrom('privacy_center_submissions').select('id').where('submitted_at', '<', before).limit(limit);
  const result = await db.deleteFrom('privacy_center_submissions').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
