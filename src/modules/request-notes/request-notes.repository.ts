import type { Executor } from '../../db/executor.js';
import type { RequestNoteTable } from '../../db/tables/request-note.table.js';

/** A stored note. */
export type RequestNoteRow = RequestNoteTable;

/** Stores a note. */
export async function insertNote(db: Executor, row: RequestNoteRow): Promise<void> {
  await db.insertInto('request_notes').values(row).execute();
}

/** The notes of a request, oldest first (ids are time-sortable), through `request_notes_request_idx`. */
export async function listNotes(db: Executor, requestId: string): Promise<RequestNoteRow[]> {
  return db
    .selectFrom('request_notes')
    .select(['id', 'request_id', 'workspace_id', 'text', 'text_sha256', 'author', 'author_name', 'created_at', 'erased_at'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
}

/**
 * Erases the text of every note on `requestIds` (a deletion of their subject, PRODUCT §2.16):
 * the row, its author and its hash stay (the audit entry holds the hash). @returns how many.
 */
export async function eraseNotesOf(db: Executor, requestIds: readonly string[], at: string): Promise<number> {
  if (requestIds.length === 0) return 0;
  const result = await db
    .updateTable('request_notes')
    .set({ text: null, erased_at: at })
    .where('request_id', 'in', [...requestIds])
    .where('text', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
