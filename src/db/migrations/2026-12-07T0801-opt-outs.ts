import type { Kysely } from 'kysely';
import { createIndex, ID, notNull, TIME } from './columns.js';
import { keyedTable, workspaceTable } from './table-shapes.js';
import { dropTables } from './statements.js';

/**
 * Opt-outs and objections (issue 36, PRODUCT §2.18):
 *
 * - `opt_outs`: each opt-out or opt-in filed, one per `(workspace_id, client_request_id)`
 *   (`opt_outs_client_request_idx`, unique); a subject's are found by
 *   `opt_outs_subject_idx`; the open ones and their deadlines by `opt_outs_status_idx`.
 * - `privacy_preferences`: a subject's standing choice per kind, keyed by workspace, subject
 *   and kind (a later choice replaces the row).
 *
 * Neither is touched by a deletion of the subject: the record of the choice is what lets the
 * workspace keep honouring it. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await workspaceTable(db, 'opt_outs')
    .addColumn('subject_provider', 'varchar(100)', notNull)
    .addColumn('subject_id', 'varchar(300)', notNull)
    .addColumn('kind', 'varchar(30)', notNull)
    .addColumn('choice', 'varchar(10)', notNull)
    .addColumn('source', 'varchar(10)', notNull)
    .addColumn('client_request_id', 'varchar(200)', notNull)
    .addColumn('status', 'varchar(20)', notNull)
    .addColumn('received_at', TIME, notNull)
    .addColumn('created_at', TIME, notNull)
    .addColumn('due_at', TIME, notNull)
    .addColumn('completed_at', TIME)
    .addColumn('filed_by', 'varchar(300)', notNull)
    .execute();
  await createIndex(db, 'opt_outs_client_request_idx', 'opt_outs', ['workspace_id', 'client_request_id'], (index) =>
    index.unique(),
  );
  await createIndex(db, 'opt_outs_subject_idx', 'opt_outs', ['workspace_id', 'subject_provider', 'subject_id', 'id']);
  await createIndex(db, 'opt_outs_status_idx', 'opt_outs', ['workspace_id', 'status', 'due_at']);
  await keyedTable(db, 'privacy_preferences', [
    ['workspace_id', 'varchar(200)'],
    ['subject_provider', 'varchar(100)'],
    ['subject_id', 'varchar(300)'],
    ['kind', 'varchar(30)'],
  ])
    .addColumn('choice', 'varchar(10)', notNull)
    .addColumn('source', 'varchar(10)', notNull)
    .addColumn('opt_out_id', ID, notNull)
    .addColumn('received_at', TIME, notNull)
    .addColumn('updated_at', TIME, notNull)
    .execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['privacy_preferences', 'opt_outs']);
}
