import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { claimDueCallbacks, enqueueCallback, recordCallbackAttempt } from '../../modules/drp/drp-callback.repository.js';
import { type DrpRequestRow, recordsWithCallbacks, updateDrpRequest } from '../../modules/drp/drp-request.repository.js';
import type { DrpStatusObject } from '../../modules/drp/drp.types.js';
import { sentStatusObject, storedStatusObject } from '../../modules/drp/results-link.fns.js';
import { statusObjectChanged } from '../../modules/drp/status-object.fns.js';
import { attemptDelivery } from '../../modules/outbound-events/http-attempt.js';
import { nextAttemptAt } from '../../modules/outbound-events/retry-schedule.js';
import { type ResultsLinks, statusObjectNow } from './drp-status-facts.js';
import { expireDrpWaits } from './expire-drp-waits.js';

/** Records read per page of a sweep. */
const SWEEP_PAGE = 200;
/** Callbacks sent per round, side by side. */
const ROUND_SIZE = 16;
/** How long a sender holds a claimed callback, ms: longer than an attempt's 15 s timeout. */
export const CALLBACK_LEASE_MS = 60_000;

/** What the callbacks need (wired once in src/services.ts). */
export interface DrpCallbackDeps {
  readonly db: Executor;
  readonly clock: Clock;
  /** `OUTBOUND_ALLOW_PRIVATE_NETWORKS`: `http://` and private addresses allowed. */
  readonly allowPrivate: boolean;
  /** How a fulfilled access's `results_url` is made ({@link statusObjectNow}). */
  readonly resultsLinks: ResultsLinks;
  /** Tests only: a shorter attempt timeout. */
  readonly timeoutMs?: number;
}

/**
 * Remembers `next` as the last status object sent for `record` and enqueues its callback, in one
 * transaction (PRODUCT §2.19 "Status callbacks"). Nothing when the record named no callback. Both
 * are stored without the results link's token ({@link storedStatusObject}); the delivery derives it again.
 */
export async function sendStatusObject(db: Executor, record: DrpRequestRow, next: DrpStatusObject, now: Date): Promise<void> {
  if (record.status_callback === null) return;
  const url = record.status_callback;
  const stored = JSON.stringify(storedStatusObject(next));
  await runUnitOfWork(db, async (unit) => {
    await updateDrpRequest(unit.tx, record.request_id, { last_status: stored });
    await enqueueCallback(unit.tx, {
      id: newId('cb', now.getTime()),
      request_id: record.request_id,
      workspace_id: record.workspace_id,
      agent_ref: record.agent_ref,
      url,
      payload: stored,
      status: 'pending',
      attempts: 0,
      next_attempt_at: toTimestamp(now),
      lease_expires_at: null,
      last_error: null,
      created_at: toTimestamp(now),
      delivered_at: null,
    });
  });
}

/**
 * One sweep of the DRP records with a `status_callback` (PRODUCT §2.19): each whose status object
 * now differs from the last one answered or sent gets a callback (so `queued` → `processing`,
 * both `in_progress`, sends nothing), superseding its older pending one.
 * @returns how many callbacks were enqueued.
 */
export async function sweepDrpCallbacks(deps: Pick<DrpCallbackDeps, 'db' | 'clock' | 'resultsLinks'>): Promise<number> {
  const now = deps.clock();
  let after = '';
  let enqueued = 0;
  for (;;) {
    const page = await recordsWithCallbacks(deps.db, after, SWEEP_PAGE);
    for (const row of page) {
      const next = await statusObjectNow(deps, row, now);
      const last = row.last_status === null ? null : (JSON.parse(row.last_status) as DrpStatusObject);
      if (!statusObjectChanged(last, storedStatusObject(next))) continue;
      await sendStatusObject(deps.db, row, next, now);
      enqueued++;
    }
    if (page.length < SWEEP_PAGE) return enqueued;
    after = page[page.length - 1]!.request_id;
  }
}

/**
 * Sends the due callbacks (PRODUCT §2.19): the status object as `application/json` with
 * `drp-callback-id` (the same on every retry) and the service's `user-agent`, not signed (DRP 1.0
 * defines no signature for them); success is a 2xx within 15 s, redirects are not followed, the
 * address is checked when resolved, the answer's body is dropped; failures retry at §2.8's times,
 * then `failed`. @returns how many were delivered.
 */
export async function deliverDrpCallbacks(deps: DrpCallbackDeps): Promise<number> {
  const now = deps.clock();
  const claimed = await claimDueCallbacks(
    deps.db,
    toTimestamp(now),
    toTimestamp(new Date(now.getTime() + CALLBACK_LEASE_MS)),
    ROUND_SIZE,
  );
  const outcomes = await Promise.all(
    claimed.map(async (callback) => {
      const payload = sendable(callback.payload, deps.resultsLinks.key);
      const outcome = await attemptDelivery(callback.url, { 'drp-callback-id': callback.id }, payload, {
        allowPrivate: deps.allowPrivate,
        ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
      });
      const at = deps.clock();
      const retry = outcome.ok ? null : nextAttemptAt(callback.attempts + 1, at.getTime());
      await recordCallbackAttempt(deps.db, callback, {
        ok: outcome.ok,
        error: outcome.error,
        at: toTimestamp(at),
        nextAttemptAt: retry === null ? null : toTimestamp(new Date(retry)),
      });
      return outcome.ok;
    }),
  );
  return outcomes.filter(Boolean).length;
}

/** A stored payload as it is sent: the results link's token derived again ({@link sentStatusObject}); others as stored. */
function sendable(payload: string, key: string): string {
  if (!payload.includes('"results_url"')) return payload;
  return JSON.stringify(sentStatusObject(JSON.parse(payload) as DrpStatusObject, key));
}

/** The DRP callbacks, bound: a sweep for changes, a round of delivery. */
export interface DrpCallbacks {
  /** {@link expireDrpWaits} (the 14 days of `need_user_verification`), then {@link sweepDrpCallbacks}. */
  sweep(): Promise<number>;
  /** {@link deliverDrpCallbacks}. */
  deliver(): Promise<number>;
}

/** Binds the callbacks to `deps` (src/services.ts wires them once). */
export function bindDrpCallbacks(deps: DrpCallbackDeps): DrpCallbacks {
  return {
    sweep: async () => {
      await expireDrpWaits(deps);
      return sweepDrpCallbacks(deps);
    },
    deliver: () => deliverDrpCallbacks(deps),
  };
}
