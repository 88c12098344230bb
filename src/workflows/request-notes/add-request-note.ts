import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import type { Principal } from '../../modules/principals/principal.js';
import { noteHash } from '../../modules/request-notes/request-notes.fns.js';
import { insertNote } from '../../modules/request-notes/request-notes.repository.js';
import { visibleRequest } from '../../modules/privacy-requests/visible-request.js';

/** A note as the API shows it: `text` null once a deletion of the subject erased it. */
export interface NoteView {
  id: string;
  text: string | null;
  author: string;
  created_at: string;
}

/**
 * Adds an internal working note on a request (PRODUCT §2.16) by `principal` (author: its name as the audit trail shows it).
 * @param text - 1–4 000 characters (checked by the route).
 * Audited (`privacy_request.note_added`, in the request's timeline) with its SHA-256, never its
 * text, so a later erasure of the text leaves the chain intact.
 * @throws RequestNotFoundError
 */
export async function addRequestNote(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  requestId: string,
  text: string,
): Promise<NoteView> {
  const { db, clock } = deps;
  return runUnitOfWork(db, async (unit) => {
    const request = await visibleRequest(unit.tx, principal, requestId);
    const now = clock();
    const at = toTimestamp(now);
    const row = {
      id: newId('note', now.getTime()),
      request_id: request.id,
      workspace_id: request.workspace_id,
      text,
      text_sha256: noteHash(text),
      author: principal.id,
      author_name: principal.name,
      created_at: at,
      erased_at: null,
    };
    await insertNote(unit.tx, row);
    recordAudit(unit, {
      actor: principal.id,
      actorName: principal.name,
      requestId: request.id,
      action: 'privacy_request.note_added',
      targetType: 'privacy_request',
      targetId: request.id,
      workspaceId: request.workspace_id,
      details: { note_id: row.id, sha256: row.text_sha256 },
      occurredAt: at,
    });
    return { id: row.id, text, author: row.author_name, created_at: at };
  });
}
