import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { ActorRef } from '../../modules/audit/audit.repository.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { commitTransition, type RequestChange } from '../../modules/privacy-requests/lifecycle/transition.js';

/**
 * Sends a request waiting in `action_required` back to `queued`, so the worker runs it again from
 * the start (PRODUCT §2.13: the controller was named, the identity re-pointed), with a fresh count
 * of attempts and no backoff, through the lifecycle's one writer; audited as `action` by `actor`.
 * The caller holds the request's row lock and checked that it waits.
 *
 * @param extra - further columns that change with it (a re-pointed identity).
 * @returns the request as stored.
 */
export function runAgain(
  unit: UnitOfWork,
  row: PrivacyRequestRow,
  t: {
    at: string;
    actor: ActorRef;
    action: string;
    details: Record<string, unknown>;
    extra?: RequestChange;
    /** The stored result goes too (a re-pointed identity: it answered for another one). */
    clearResult?: true;
  },
): Promise<PrivacyRequestRow> {
  return commitTransition(unit, row, {
    at: t.at,
    ...(t.clearResult ? { clearResult: true as const } : {}),
    change: { ...t.extra, status: 'queued', status_reason: null, attempts: 0, next_attempt_at: null },
    audit: { actor: t.actor, action: t.action, details: { from: row.status, to: 'queued', ...t.details } },
  });
}
