import type { Selectable, Transaction } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DB } from '../../db/schema.js';
import type { PrivacyCenterMailTable } from '../../db/tables/privacy-center.table.js';
import type { DeferredWrites, UnitOfWork } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import { newStatusToken, statusTokenHash } from './privacy-center.fns.js';

export type { AgentNoticeEvent, DirectMail, MailKind, MailPayload, RequestMail, RequestMailKind } from './mail.types.js';
import type { DirectMail, MailKind, MailPayload, RequestMail } from './mail.types.js';

export type MailRow = Selectable<PrivacyCenterMailTable>;

function mailRow(m: {
  workspaceId: string;
  requestId: string | null;
  kind: MailKind;
  recipient: string;
  payload: MailPayload;
  at: string;
}): MailRow {
  return {
    id: newId('mail'),
    workspace_id: m.workspaceId,
    request_id: m.requestId,
    kind: m.kind,
    recipient: m.recipient,
    payload: JSON.stringify(m.payload),
    created_at: m.at,
    next_attempt_at: m.at,
    attempts: 0,
    lease_expires_at: null,
    lease_token: null,
    sent_at: null,
  };
}

/** Direct mails as a deferred write: inserted right before COMMIT (nothing if the unit rolls back). */
const directMails: DeferredWrites<DirectMail> = {
  name: 'mails',
  flush: async (tx, mails) => {
    await tx
      .insertInto('privacy_center_mails')
      .values(mails.map((m) => mailRow({ ...m, requestId: null })))
      .execute();
  },
};

/**
 * Request mails as a deferred write: at commit, each request's notify address is read (none, or
 * blanked: no mail); a mail of a request with a status page is marked to carry a status link
 * (its token is minted when it is sent). A request's last mail (`completed`,
 * `rejected`) blanks its notify address: from then on the address is only in the outbox row,
 * which forgets it once sent.
 */
const requestMails: DeferredWrites<RequestMail> = {
  name: 'request mails',
  flush: (tx, mails) => insertRequestMails(tx, mails),
};

async function insertRequestMails(tx: Transaction<DB>, mails: readonly RequestMail[]): Promise<void> {
  const ids = [...new Set(mails.map((m) => m.requestId))];
  const addresses = await tx
    .selectFrom('request_notify_addresses')
    .select(['request_id', 'email', 'status_link', 'agent_email'])
    .where('request_id', 'in', ids)
    .execute();
  if (addresses.length === 0) return;
  const byRequest = new Map(addresses.map((a) => [a.request_id, a]));
  const rows: MailRow[] = [];
  for (const mail of mails) {
    const address = byRequest.get(mail.requestId);
    if (!address || address.email === '') continue;
    const payload = { ...mail.payload };
    if (address.status_link === 1 && (mail.kind === 'received' || mail.kind === 'completed' || mail.kind === 'extended'))
      payload.status_link = true;
    rows.push(mailRow({ ...mail, recipient: address.email, payload }));
    if (address.agent_email) {
      // Filed through the center's agent path (PRODUCT §2.19): the agent hears of it too, without a link or any data.
      const notice: MailPayload = { request_type: mail.payload.request_type, event: mail.kind };
      rows.push(mailRow({ ...mail, kind: 'agent_notice', recipient: address.agent_email, payload: notice }));
    }
    if (mail.kind === 'completed' || mail.kind === 'rejected') {
      // The request's last mail: its addresses now live in the outbox alone, wiped once sent (issue 33 item 3).
      await tx
        .updateTable('request_notify_addresses')
        .set({ email: '', ...(address.agent_email ? { agent_email: '' } : {}) })
        .where('request_id', '=', mail.requestId)
        .execute();
      address.email = '';
      address.agent_email = address.agent_email ? '' : address.agent_email;
    }
    if (mail.kind === 'extended') {
      await tx
        .updateTable('request_notify_addresses')
        .set({ extension_reason: mail.payload.reason ?? null })
        .where('request_id', '=', mail.requestId)
        .execute();
    }
  }
  if (rows.length > 0) await tx.insertInto('privacy_center_mails').values(rows).execute();
}

/**
 * Issues a fresh status-page capability token for request `requestId` of `workspaceId`, as a mail
 * is sent: its SHA-256 hash is stored, the plain token goes into the mail alone (PRODUCT §2.15).
 * @returns the plain token.
 */
export async function insertStatusToken(
  db: Executor,
  row: { requestId: string; workspaceId: string; at: string },
): Promise<string> {
  const token = newStatusToken();
  await db
    .insertInto('privacy_center_status_tokens')
    .values({ token_hash: statusTokenHash(token), request_id: row.requestId, workspace_id: row.workspaceId, created_at: row.at })
    .execute();
  return token;
}

/** Enqueues a mail to `mail.recipient`, written at the unit's commit. */
export function enqueueDirectMail(unit: UnitOfWork, mail: DirectMail): void {
  unit.defer(directMails, mail);
}

/** Enqueues a mail about a request to its notify address (if any), written at the unit's commit. */
export function enqueueRequestMail(unit: UnitOfWork, mail: RequestMail): void {
  unit.defer(requestMails, mail);
}

/** Records where a new request's mails go (`statusLink`: it has a status page). */
export async function insertNotifyAddress(
  db: Executor,
  row: { requestId: string; workspaceId: string; email: string; statusLink: boolean; agentEmail?: string | null },
): Promise<void> {
  await db
    .insertInto('request_notify_addresses')
    .values({
      request_id: row.requestId,
      workspace_id: row.workspaceId,
      email: row.email,
      status_link: row.statusLink ? 1 : 0,
      extension_reason: null,
      agent_email: row.agentEmail ?? null,
    })
    .execute();
}

/**
 * Claims up to `limit` due, unsent mails until `leaseUntil` under `token` (a mail whose lease
 * lapsed, its sender gone, is due again). @returns the claimed rows.
 */
export async function claimDueMails(
  db: Executor,
  claim: { now: string; leaseUntil: string; token: string; limit: number },
): Promise<MailRow[]> {
  const due = await db
    .selectFrom('privacy_center_mails')
    .select(['id', 'lease_expires_at'])
    .where('sent_at', 'is', null)
    .where('next_attempt_at', '<=', claim.now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', claim.now)]))
    .orderBy('next_attempt_at')
    .limit(claim.limit)
    .execute();
  const claimed: MailRow[] = [];
  for (const row of due) {
    const taken = await db
      .updateTable('privacy_center_mails')
      .set({ lease_expires_at: claim.leaseUntil, lease_token: claim.token })
      .where('id', '=', row.id)
      .where('sent_at', 'is', null)
      .where((eb) =>
        row.lease_expires_at === null ? eb('lease_expires_at', 'is', null) : eb('lease_expires_at', '=', row.lease_expires_at),
      )
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) continue;
    const mail = await db.selectFrom('privacy_center_mails').selectAll().where('id', '=', row.id).executeTakeFirst();
    if (mail) claimed.push(mail);
  }
  return claimed;
}

/**
 * Marks a mail sent and forgets what it said and to whom (the code or token it carried), if the
 * lease `token` still holds it: a sender whose lease lapsed and was taken by another changes
 * nothing (a lapsed lease nobody took still counts: the mail is not sent again).
 * @returns false when the lease was lost (the other sender may send the mail again).
 */
export async function markMailSent(db: Executor, id: string, token: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('privacy_center_mails')
    .set({ sent_at: at, payload: '{}', recipient: '', lease_expires_at: null, lease_token: null })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .where('sent_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a mail not to be sent (a code mail whose code expired), if the lease `token` still holds it. */
export async function dropMail(db: Executor, id: string, token: string): Promise<void> {
  await db
    .deleteFrom('privacy_center_mails')
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .where('sent_at', 'is', null)
    .execute();
}

/** Puts a mail back for a later attempt, if the lease `token` still holds it. */
export async function rescheduleMail(
  db: Executor,
  id: string,
  token: string,
  attempts: number,
  nextAttemptAt: string,
): Promise<void> {
  await db
    .updateTable('privacy_center_mails')
    .set({ attempts, next_attempt_at: nextAttemptAt, lease_expires_at: null, lease_token: null })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .execute();
}

/** Gives back claimed mails not tried this round (due again at once), where the lease `token` still holds them. */
export async function releaseMails(db: Executor, ids: readonly string[], token: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('privacy_center_mails')
    .set({ lease_expires_at: null, lease_token: null })
    .where('id', 'in', ids)
    .where('lease_token', '=', token)
    .where('sent_at', 'is', null)
    .execute();
}

/** Unsent mails, for /readyz and the metrics: how many wait. */
export async function countUnsentMails(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('privacy_center_mails')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('sent_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
