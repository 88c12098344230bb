/**
 * What a test reads of the privacy center's outbox (issue 33): a code mail's code, opened with
 * the service's secrets key as the mail loop does (the outbox holds it only sealed), and for a
 * mail with a status link a fresh status token, issued as the mail loop issues one when it sends.
 */
import { insertStatusToken, type MailPayload } from '../../src/modules/privacy-center/mail-outbox.repository.js';
import type { TestApp } from './app.js';

/** An outbox row's payload as the mail would carry it: `code` opened, `status_token` issued (when it links the status page). */
export async function mailWords(
  t: TestApp,
  row: { payload: string; request_id: string | null; workspace_id: string },
): Promise<MailPayload & { request_id: string | null }> {
  const payload = JSON.parse(row.payload) as MailPayload;
  if (payload.code_sealed) payload.code = t.services.secretBox.open(payload.code_sealed);
  if (payload.status_link && row.request_id)
    payload.status_token = await insertStatusToken(t.services.database.db, {
      requestId: row.request_id,
      workspaceId: row.workspace_id,
      at: new Date().toISOString(),
    });
  return { ...payload, request_id: row.request_id };
}
