import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { Executor } from '../db/executor.js';
import { checkpointUntilClean } from '../db/wal-checkpoint.js';
import type { Wakeups } from '../db/wakeup.js';
import { createIdleWait } from './idle-wait.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { ControllerService } from '../workflows/controllers/controller-profiles.js';
import {
  claimDueMails,
  dropMail,
  insertStatusToken,
  markMailSent,
  type MailKind,
  type MailPayload,
  type MailRow,
  releaseMails,
  rescheduleMail,
} from '../modules/privacy-center/mail-outbox.repository.js';
import { countNotSearchable } from '../modules/data-systems/data-task-result.repository.js';
import { renderMail } from '../modules/privacy-center/mail-render.fns.js';
import { renderAgentMail } from '../modules/privacy-center/agent-mail-render.fns.js';
import { CODE_TTL_MS } from '../modules/privacy-center/privacy-center.fns.js';
import type { RequestResultsService } from '../workflows/results/request-results.js';
import type { Mailer } from '../modules/privacy-center/mailer.js';

/** Mails claimed per round. */
const ROUND_SIZE = 20;
/** How long a claimed mail is held by its sender, ms; past it another process may send it. */
export const MAIL_LEASE_MS = 60_000;
/** Longest wait between two attempts of one mail, ms. */
const MAX_BACKOFF_MS = 60 * 60_000;
/** Waits between checkpoint attempts after sending, ms: short, the loop goes on (the next round tries again). */
const CHECKPOINT_DELAYS_MS = [20, 50, 100, 250];

/** The wait before attempt `attempts + 1`, ms: 5 s, doubling, at most an hour. */
export function mailBackoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 5000 * 2 ** Math.min(attempts, 20));
}

/** A running mail loop; `stop()` resolves after the round in hand. */
export interface MailLoop {
  /** Sends what is due now. @returns how many were sent. */
  round(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Sends the privacy center's mail outbox (PRODUCT §2.15) with `mailer`, beside the request
 * worker. Each round claims due mails under a lease of `leaseMs` (a crashed sender's mails come
 * back when it lapses) and a random lease token; it starts a send only while the lease has at
 * least `mailer.sendTimeoutMs` left, so every send ends within the lease, and gives the rest back.
 * Each mail is rendered with the workspace's controller profile and the status link (its token
 * minted now, only its hash stored), sent, then
 * marked sent (only while the token still holds it) and its words and address forgotten. A code
 * mail's code is opened from its sealed form only in memory; a code mail whose code expired is
 * dropped, not sent. A failed send waits ({@link mailBackoffMs}) and is tried again. On SQLite the
 * WAL is checkpointed after mails were sent, so a forgotten address or code leaves no copy there.
 * Logs name mail ids and kinds only, never an address, code or token.
 *
 * After a crash between a send and its mark, that one mail is sent again once the lease lapses,
 * with the same Message-ID (docs/privacy-center.md).
 *
 * @throws Error when `leaseMs` is not longer than `mailer.sendTimeoutMs` (no send would fit).
 */
export function startMailLoop(deps: {
  db: Executor;
  clock: Clock;
  mailer: Mailer;
  /** Opens a code mail's sealed code (the service's secrets key). */
  secretBox: Pick<SecretBox, 'open'>;
  controllers: Pick<ControllerService, 'get'>;
  /** What a completed deletion kept and why (PRODUCT §2.17), for its "done" mail; absent: the mail lists nothing. */
  requestResults?: Pick<RequestResultsService, 'deletionKept'>;
  /** The database, to checkpoint SQLite's WAL after mails were sent (absent: no checkpoint). */
  database?: Pick<Database, 'checkpoint' | 'dialect'>;
  publicBaseUrl: string;
  pollMs: number;
  /** How long a round holds its mails, ms (default {@link MAIL_LEASE_MS}). */
  leaseMs?: number;
  /** The database's wake-ups (db/wakeup.ts): a mail enqueued by a commit is sent without waiting `pollMs`. */
  wakeups?: Wakeups;
  log: Logger;
}): MailLoop {
  const { db, clock, mailer, controllers, log } = deps;
  const leaseMs = deps.leaseMs ?? MAIL_LEASE_MS;
  if (leaseMs <= mailer.sendTimeoutMs) throw new Error('the mail lease must be longer than the SMTP send timeout');
  const base = deps.publicBaseUrl.replace(/\/+$/, '');
  let running = true;
  /** Mails were sent since the last clean checkpoint. */
  let unchecked = false;

  /** Opens a code mail's code, or says why it is not to be sent (expired, or not sealed under this key). */
  function openCode(mail: MailRow, payload: MailPayload): 'expired' | 'unreadable' | null {
    const expiresAt = payload.code_expires_at ?? toTimestamp(new Date(Date.parse(mail.created_at) + CODE_TTL_MS));
    if (clock().getTime() >= Date.parse(expiresAt)) return 'expired';
    if (payload.code_sealed === undefined) return payload.code === undefined ? 'unreadable' : null;
    try {
      payload.code = deps.secretBox.open(payload.code_sealed);
      return null;
    } catch {
      return 'unreadable';
    }
  }

  /** An `agent_confirm` mail's link to the person's confirmation page (PRODUCT §2.19), else null. */
  function confirmUrl(mail: MailRow, payload: MailPayload): string | null {
    if (payload.confirm_token === undefined || payload.agent_submission_id === undefined) return null;
    const ws = encodeURIComponent(mail.workspace_id);
    return `${base}/privacy-center/${ws}/agent-requests/${payload.agent_submission_id}/confirm?token=${payload.confirm_token}`;
  }

  /** Sends one claimed mail. @returns whether it was sent. */
  async function deliver(mail: MailRow, token: string): Promise<boolean> {
    const payload = JSON.parse(mail.payload) as MailPayload;
    if (mail.kind === 'agent_confirm') {
      // The person's confirmation link (PRODUCT §2.19): its token is opened only in memory, as a code is.
      try {
        payload.confirm_token = deps.secretBox.open(payload.confirm_sealed ?? '');
      } catch {
        await dropMail(db, mail.id, token);
        log.info({ mail: mail.id, kind: mail.kind, reason: 'unreadable' }, 'confirmation mail dropped, not sent');
        return false;
      }
    }
    if (mail.kind === 'code') {
      const unsendable = openCode(mail, payload);
      if (unsendable !== null) {
        await dropMail(db, mail.id, token);
        log.info({ mail: mail.id, kind: mail.kind, reason: unsendable }, 'code mail dropped, not sent');
        return false;
      }
    }
    const profile = await controllers.get(mail.workspace_id);
    // The status link's token is minted now: it never waits in the outbox in clear. It stays valid
    // if the send fails (the server may have taken the mail before the failure); a retry mints another.
    const minted =
      payload.status_link && mail.request_id
        ? await insertStatusToken(db, { requestId: mail.request_id, workspaceId: mail.workspace_id, at: toTimestamp(clock()) })
        : null;
    if (minted) payload.status_token = minted;
    const statusUrl =
      payload.status_token && mail.request_id
        ? `${base}/privacy-center/${encodeURIComponent(mail.workspace_id)}/status/${mail.request_id}?token=${payload.status_token}`
        : null;
    // A completed answer says how many systems could not be searched, a deletion what it kept (PRODUCT §2.17).
    const completed = mail.kind === 'completed' && mail.request_id ? mail.request_id : null;
    const notSearched = completed ? await countNotSearchable(db, completed) : 0;
    const kept =
      completed && payload.request_type === 'deletion' ? ((await deps.requestResults?.deletionKept(completed)) ?? []) : [];
    const kind = mail.kind as MailKind;
    const rendered =
      kind === 'agent_confirm' || kind === 'agent_notice' || (kind === 'code' && payload.for_agent)
        ? renderAgentMail(kind, payload, profile, confirmUrl(mail, payload))
        : renderMail(kind, payload, profile, statusUrl, { notSearched, kept });
    try {
      await mailer.send({ to: mail.recipient, ...rendered, messageId: `<${mail.id}@privacy-center>` });
    } catch (err) {
      const attempts = mail.attempts + 1;
      await rescheduleMail(db, mail.id, token, attempts, toTimestamp(new Date(clock().getTime() + mailBackoffMs(attempts))));
      log.warn({ mail: mail.id, kind: mail.kind, attempts, err: { name: (err as Error).name } }, 'mail not sent; retrying later');
      return false;
    }
    unchecked = true;
    if (!(await markMailSent(db, mail.id, token, toTimestamp(clock())))) {
      log.warn({ mail: mail.id, kind: mail.kind }, 'mail sent after its lease was taken over; it may be sent again');
    }
    return true;
  }

  async function round(): Promise<number> {
    const start = clock().getTime();
    const leaseUntil = start + leaseMs;
    const token = randomBytes(16).toString('base64url');
    const mails = await claimDueMails(db, {
      now: toTimestamp(new Date(start)),
      leaseUntil: toTimestamp(new Date(leaseUntil)),
      token,
      limit: ROUND_SIZE,
    });
    let sent = 0;
    for (const [i, mail] of mails.entries()) {
      // A send must end within the lease: past it another sender may take the mail and send it too.
      if (clock().getTime() + mailer.sendTimeoutMs >= leaseUntil) {
        await releaseMails(
          db,
          mails.slice(i).map((m) => m.id),
          token,
        );
        break;
      }
      if (await deliver(mail, token)) sent += 1;
    }
    if (unchecked && deps.database) {
      unchecked = !(await checkpointUntilClean(deps.database, { log, delaysMs: CHECKPOINT_DELAYS_MS }));
    }
    return sent;
  }

  const idle = createIdleWait(deps.pollMs, deps.wakeups);
  const loop = (async () => {
    while (running) {
      let sent = 0;
      idle.clear();
      try {
        sent = await round();
      } catch (err) {
        log.error({ err: { name: (err as Error).name } }, 'mail round failed');
      }
      if (sent === 0 && running) await idle.wait();
    }
  })();
  return {
    round,
    async stop() {
      running = false;
      idle.wake();
      await loop;
      idle.close();
    },
  };
}
