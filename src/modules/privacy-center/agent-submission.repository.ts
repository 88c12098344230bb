import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import type { PrivacyCenterAgentSubmissionTable } from '../../db/tables/privacy-center.table.js';

/** A stored agent submission (PRODUCT §2.19, the center's agent path). */
export type AgentSubmissionRow = Selectable<PrivacyCenterAgentSubmissionTable>;

const COLUMNS = [
  'id',
  'workspace_id',
  'request_type',
  'agent_email',
  'agent_name',
  'subject_email',
  'proof_ref',
  'code_hash',
  'code_expires_at',
  'attempts_left',
  'submitted_at',
  'verified_at',
  'confirm_hash',
] as const;

/** Stores a new agent submission. */
export async function insertAgentSubmission(db: Executor, row: AgentSubmissionRow): Promise<void> {
  await db.insertInto('privacy_center_agent_submissions').values(row).execute();
}

/** Agent submission `id` of `workspaceId`, locked for update (PostgreSQL; SQLite's writer is alone), or undefined. */
export async function lockAgentSubmission(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<AgentSubmissionRow | undefined> {
  return forUpdate(
    db,
    db
      .selectFrom('privacy_center_agent_submissions')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId),
  ).executeTakeFirst();
}

/** Agent submission `id` of `workspaceId`, unlocked (the confirmation page's read), or undefined. */
export async function findAgentSubmission(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<AgentSubmissionRow | undefined> {
  return db
    .selectFrom('privacy_center_agent_submissions')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Sets what a code attempt changed. */
export async function updateAgentSubmission(
  db: Executor,
  id: string,
  change: { attempts_left?: number; verified_at?: string; confirm_hash?: string },
): Promise<void> {
  await db.updateTable('privacy_center_agent_submissions').set(change).where('id', '=', id).execute();
}

/** Deletes agent submission `id` (and with it both addresses). */
export async function deleteAgentSubmission(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('privacy_center_agent_submissions').where('id', '=', id).execute();
}

/** Deletes up to `limit` agent submissions never verified, made before `before` (ISO 8601). @returns how many. */
export async function deleteUnverifiedAgentSubmissionsBefore(db: Executor, before: string, limit: number): Promise<number> {
  const ids = db
    .selectFrom('privacy_center_agent_submissions')
    .select('id')
    .where('verified_at', 'is', null)
    .where('submitted_at', '<', before)
    .limit(limit);
  const result = await db.deleteFrom('privacy_center_agent_submissions').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Up to `limit` verified agent submissions the person did not answer, verified before `before`, locked for update. */
export async function lockUnansweredAgentSubmissions(db: Executor, before: string, limit: number): Promise<AgentSubmissionRow[]> {
  return forUpdate(
    db,
    db
      .selectFrom('privacy_center_agent_submissions')
      .select(COLUMNS)
      .where('verified_at', 'is not', null)
      .where('verified_at', '<', before)
      .orderBy('verified_at')
      .limit(limit),
  ).execute();
}
