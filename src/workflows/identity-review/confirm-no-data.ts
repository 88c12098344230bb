import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import type { Principal } from '../../modules/principals/principal.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import { findResult } from '../../modules/privacy-requests/result.repository.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';
import { checkAwaitingReview, noDataStatement } from './review-checks.js';

/** Adds the confirmation `statement` to a stored package or report (JSON text); null stays null. */
function confirmed(json: string | null, statement: string, at: string): string | null {
  if (json === null) return null;
  return JSON.stringify({
    ...(JSON.parse(json) as object),
    no_data_confirmation: { statement, confirmed_at: at },
  });
}

/**
 * `POST …/{id}/confirm-no-data`: completes the request with its stored answer and the
 * confirmation that no personal data of the person is processed (audited as
 * `privacy_request.no_data_confirmed`).
 * @throws RequestNotFoundError, NotAwaitingIdentityReviewError (409).
 */
export async function confirmNoData(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  id: string,
  input: { reason: string },
): Promise<PrivacyRequestResource> {
  const { db, clock } = deps;
  return runUnitOfWork(db, async (unit) => {
    const row = checkAwaitingReview(await lockRequest(unit.tx, id), principal, id);
    const at = toTimestamp(clock());
    const stored = await findResult(unit.tx, id);
    const statement = await noDataStatement(unit.tx, id);
    const updated = await commitTransition(unit, row, {
      at,
      change: { status: 'completed', status_reason: null, completed_at: at },
      ...(stored
        ? {
            result: {
              pkg: confirmed(stored.package, statement, at),
              report: confirmed(stored.report, statement, at),
              stored: 'completed' as const,
            },
          }
        : {}),
      audit: {
        actor: principal,
        action: 'privacy_request.no_data_confirmed',
        details: { from: row.status, to: 'completed', reason: input.reason },
      },
    });
    return toResource(updated);
  });
}
