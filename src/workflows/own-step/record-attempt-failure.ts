import type { UnitOfWork } from '../../db/unit-of-work.js';
import { toTimestamp } from '../../lib/clock.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { LeaseLost } from '../../modules/privacy-requests/privacy-request.errors.js';
import { traitsOf } from '../../modules/privacy-requests/request-types.js';
import { retryDelayMs } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';
import type { OwnStepDeps } from './record-own-step.js';

/**
 * Records a failed attempt in `unit`: `queued` again after the backoff ({@link retryDelayMs}),
 * or, when `final`, `failed` with its audit entry and event (the data tasks of a type that
 * erases, which exist from its committed erasure step, are closed). Nothing is written when the
 * lease is no longer this worker's.
 *
 * @param failure.reason - the stored `status_reason` (no personal data: an error class name).
 * @param failure.final - true when the attempts are used up (`WORKER_MAX_ATTEMPTS`).
 * @param failure.now - when the attempt failed; the retry is due `retryDelayMs(attempts)` ms later.
 */
export async function recordAttemptFailure(
  deps: Pick<OwnStepDeps, 'owner'>,
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  failure: { reason: string; final: boolean; now: Date },
): Promise<void> {
  const { owner } = deps;
  const { reason, final, now } = failure;
  const at = toTimestamp(now);
  const retryAt = toTimestamp(new Date(now.getTime() + retryDelayMs(request.attempts)));
  try {
    await commitTransition(unit, request, {
      at,
      leaseOwner: owner,
      change: final
        ? { status: 'failed', status_reason: reason }
        : { status: 'queued', status_reason: reason, next_attempt_at: retryAt },
      ...(final && traitsOf(request.request_type).erases ? { closeTasksBy: 'worker' } : {}),
      ...(final
        ? { audit: { actor: 'worker', action: 'privacy_request.failed', details: { attempts: request.attempts, reason } } }
        : {}),
    });
  } catch (error) {
    if (!(error instanceof LeaseLost)) throw error;
  }
}
