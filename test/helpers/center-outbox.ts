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

/** The newest outbox mail of `kind` (for request `requestId`, or any) as {@link mailWords} gives it. */
export async function newestMail(
  t: TestApp,
  kind: string,
  requestId?: string,
): Promise<MailPayload & { request_id: string | null }> {
  let query = t.services.database.db
    .selectFrom('privacy_center_mails')
    .select(['payload', 'request_id', 'workspace_id'])
    .where('kind', '=', kind);
  if (requestId) query = query.where('request_id', '=', requestId);
  const [row] = await query.orderBy('id', 'desc').limit(1).execute();
  if (!row) throw new Error(`no ${kind} mail in the outbox`);
  return mailWords(t, row);
}

/**
 * Files a request through the privacy center's JSON API of `workspace` as the person does, and
 * verifies it with the code mailed to them (PRODUCT §2.15). `beforeVerify` runs between the two
 * (a test's clock moves on). @returns the filed request's id and a status token for its page.
 */
export async function fileThroughCenter(
  t: TestApp,
  input: { workspace: string; requestType: string; email: string; beforeVerify?: () => void },
): Promise<{ id: string; token: string }> {
  const submitted = await t.app.inject({
    method: 'POST',
    url: `/privacy-center/v1/${input.workspace}/requests`,
    payload: { request_type: input.requestType, email: input.email },
  });
  if (submitted.statusCode !== 202) throw new Error(`submission: HTTP ${submitted.statusCode} ${submitted.body}`);
  const { code } = await newestMail(t, 'code');
  input.beforeVerify?.();
  const verified = await t.app.inject({
    method: 'POST',
    url: `/privacy-center/v1/${input.workspace}/requests/${submitted.json().id}/verify`,
    payload: { code },
  });
  if (verified.statusCode !== 200) throw new Error(`verification: HTTP ${verified.statusCode} ${verified.body}`);
  const received = await newestMail(t, 'received');
  return { id: received.request_id!, token: received.status_token! };
}
