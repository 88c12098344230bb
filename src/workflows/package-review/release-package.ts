import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { SelfReleaseError } from '../../modules/package-review/package-review.errors.js';
import { listRedactions } from '../../modules/package-review/package-redaction.repository.js';
import type { Principal } from '../../modules/principals/principal.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import { findResult } from '../../modules/privacy-requests/result.repository.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';
import { lockRequestInReview } from './reviewed-request.js';

/**
 * `POST …/{id}/release {reason?}` (PRODUCT §2.20): a package that waited for its review goes to
 * the person: the request completes (its `completed_at` and the package's retention count from
 * now), the letter and the "completed" mail follow as for any completion, with each standing
 * redaction's value withheld. Four eyes: an operator whose own redaction still stands may not
 * release (as for approval, §2.3); with none of theirs standing, any operator may. Through the
 * lifecycle's one writer, audited `privacy_request.released` with the number of redactions.
 *
 * @throws RequestNotFoundError, NotAwaitingReviewError (409), SelfReleaseError (403): nothing changes.
 */
export async function releasePackage(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  requestId: string,
  input: { reason?: string },
): Promise<PrivacyRequestResource> {
  const { db, clock } = deps;
  return runUnitOfWork(db, async (unit) => {
    const row = await lockRequestInReview(unit.tx, principal, requestId);
    const redactions = await listRedactions(unit.tx, row.id);
    if (redactions.some((r) => r.created_by === principal.id)) throw new SelfReleaseError();
    const stored = await findResult(unit.tx, row.id);
    const at = toTimestamp(clock());
    const updated = await commitTransition(unit, row, {
      at,
      change: { status: 'completed', status_reason: null, completed_at: at },
      // The same result, produced (for its retention) now: the person gets it from now on.
      ...(stored ? { result: { pkg: stored.package, report: stored.report, stored: 'completed' as const } } : {}),
      audit: {
        actor: principal,
        action: 'privacy_request.released',
        details: {
          from: row.status,
          to: 'completed',
          redactions: redactions.length,
          ...(input.reason ? { reason: input.reason } : {}),
        },
      },
    });
    return toResource(updated);
  });
}
