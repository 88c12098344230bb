import type { Executor } from '../../db/executor.js';
import type { Principal } from '../../modules/principals/principal.js';
import { visibleRequest } from '../../modules/privacy-requests/visible-request.js';
import { listNotes } from '../../modules/request-notes/request-notes.repository.js';
import type { NoteView } from './add-request-note.js';

/** The request's notes, oldest first. @throws RequestNotFoundError */
export async function listRequestNotes(deps: { db: Executor }, principal: Principal, requestId: string): Promise<NoteView[]> {
  const { db } = deps;
  await visibleRequest(db, principal, requestId);
  const rows = await listNotes(db, requestId);
  return rows.map((r) => ({ id: r.id, text: r.text, author: r.author_name, created_at: r.created_at }));
}
