import type { Logger } from 'pino';
import type { Executor } from '../db/executor.js';
import type { Wakeups } from '../db/wakeup.js';
import { createIdleWait } from './idle-wait.js';
import { type Clock, toTimestamp } from '../lib/clock.js';
import type { ControllerService } from '../modules/controllers/controller.service.js';
import {
  claimDueMails,
  markMailSent,
  type MailKind,
  type MailPayload,
  rescheduleMail,
} from '../modules/privacy-center/mail-outbox.repository.js';
import { countNotSearchable } from '../modules/data-systems/data-task-result.repository.js';
import { renderMail } from '../modules/privacy-center/mail-render.fns.js';
import type { RequestResultsService } from '../modules/privacy-requests/request-results.service.js';
import type { Mailer } from '../modules/privacy-center/mailer.js';

/** Mails claimed per round. */
const ROUND_SIZE = 20;
/** How long a claimed mail is held by its sender, ms; past it another process may send it. */
const MAIL_LEASE_MS = 60_000;
/** Longest wait between two attempts of one mail, ms. */
const MAX_BACKOFF_MS = 60 * 60_000;

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
 * worker. Each round claims due mails under a lease (a crashed sender's mails come back when it
 * lapses), renders each with the workspace's controller profile and the status link, sends it,
 * then marks it sent and forgets its words and address. A failed send waits ({@link mailBackoffMs})
 * and is tried again; nothing is dropped. Logs name mail ids and kinds only, never an address,
 * code or token.
 */
export function startMailLoop(deps: {
  db: Executor;
  clock: Clock;
  mailer: Mailer;
  controllers: Pick<ControllerService, 'get'>;
  /** What a completed deletion kept and why (PRODUCT §2.17), for its "done" mail; absent: the mail lists nothing. */
  requestResults?: Pick<RequestResultsService, 'deletionKept'>;
  publicBaseUrl: string;
  pollMs: number;
  /** The database's wake-ups (db/wakeup.ts): a mail enqueued by a commit is sent without waiting `pollMs`. */
  wakeups?: Wakeups;
  log: Logger;
}): MailLoop {
  const { db, clock, mailer, controllers, log } = deps;
  const base = deps.publicBaseUrl.replace(/\/+$/, '');
  let running = true;

  async function round(): Promise<number> {
    const now = clock().getTime();
    const mails = await claimDueMails(db, toTimestamp(new Date(now)), toTimestamp(new Date(now + MAIL_LEASE_MS)), ROUND_SIZE);
    let sent = 0;
    for (const mail of mails) {
      const payload = JSON.parse(mail.payload) as MailPayload;
      const profile = await controllers.get(mail.workspace_id);
      const statusUrl =
        payload.status_token && mail.request_id
          ? `${base}/privacy-center/${encodeURIComponent(mail.workspace_id)}/status/${mail.request_id}?token=${payload.status_token}`
          : null;
      // A completed answer says how many systems could not be searched, a deletion what it kept (PRODUCT §2.17).
      const completed = mail.kind === 'completed' && mail.request_id ? mail.request_id : null;
      const notSearched = completed ? await countNotSearchable(db, completed) : 0;
      const kept =
        completed && payload.request_type === 'deletion' ? ((await deps.requestResults?.deletionKept(completed)) ?? []) : [];
      const rendered = renderMail(mail.kind as MailKind, payload, profile, statusUrl, { notSearched, kept });
      try {
        await mailer.send({ to: mail.recipient, ...rendered, messageId: `<${mail.id}@privacy-center>` });
        await markMailSent(db, mail.id, toTimestamp(clock()));
        sent += 1;
      } catch (err) {
        const attempts = mail.attempts + 1;
        await rescheduleMail(db, mail.id, attempts, toTimestamp(new Date(clock().getTime() + mailBackoffMs(attempts))));
        log.warn(
          { mail: mail.id, kind: mail.kind, attempts, err: { name: (err as Error).name } },
          'mail not sent; retrying later',
        );
      }
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
