import type { Executor } from '../../../db/executor.js';
import { runUnitOfWork } from '../../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../../lib/clock.js';
import { deleteTasksOfRequest } from '../../data-systems/data-task.repository.js';
import { coversWorkspace, type Principal } from '../../principals/principal.js';
import { NotAwaitingIdentityReviewError, RequestNotFoundError } from '../privacy-request.errors.js';
import { toResource } from '../privacy-request.fns.js';
import { findRequestById, lockRequest } from '../privacy-request.repository.js';
import type { PrivacyRequestResource } from '../privacy-request.types.js';
import { findResult } from '../result.repository.js';
import type { PrivacyRequestRow } from '../../request-model/request-model.js';
import { IDENTITY_UNMATCHED } from './lifecycle.fns.js';
import { runAgain } from './run-again.js';
import { commitTransition } from './transition.js';

/** What a confirmed no-data answer states (GDPR Art. 15(1): confirmation whether data is processed). */
export const NO_DATA_CONFIRMATION =
  'We have checked this service and every system that holds personal data for us: we do not process any personal data about you.';

/** Adds the confirmation to a stored package or report (JSON text); null stays null. */
function confirmed(json: string | null, at: string): string | null {
  if (json === null) return null;
  return JSON.stringify({
    ...(JSON.parse(json) as object),
    no_data_confirmation: { statement: NO_DATA_CONFIRMATION, confirmed_at: at },
  });
}

/**
 * An operator's review of a request for an identity nothing matched (PRODUCT §2.13): re-point it
 * to the identity it meant (it runs again from the start, its earlier data tasks removed), or
 * confirm the no-data answer (it completes with the Art. 15(1) confirmation). Each in one
 * transaction under the request's row lock, through the lifecycle's one writer, audited with the
 * actor and the reason (never the identity: the audit trail holds no subject id).
 */
export function createIdentityReview(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;

  /** Checks that `row` (request `id`, read or locked) is the principal's and waits for this review. */
  function checkWaiting(row: PrivacyRequestRow | undefined, principal: Principal, id: string): PrivacyRequestRow {
    if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
    if (row.status !== 'action_required' || row.status_reason !== IDENTITY_UNMATCHED)
      throw new NotAwaitingIdentityReviewError(row.status, row.status_reason);
    return row;
  }

  /** Locks request `id` and checks that it waits for this review. */
  async function waiting(tx: Executor, principal: Principal, id: string) {
    return checkWaiting(await lockRequest(tx, id), principal, id);
  }

  return {
    /**
     * `GET …/{id}/confirm-no-data` (PRODUCT §2.21): what confirming would tell the person, before
     * anyone confirms: the statement their letter or confirmation will carry. Changes nothing.
     * @throws RequestNotFoundError, NotAwaitingIdentityReviewError (409).
     */
    async noDataPreview(principal: Principal, id: string): Promise<{ statement: string }> {
      checkWaiting(await findRequestById(db, id), principal, id);
      return { statement: NO_DATA_CONFIRMATION };
    },

    /**
     * `POST …/{id}/identity`: names the identity the request meant; it goes back to `queued`
     * and runs again (audited as `privacy_request.identity_repointed`).
     * @throws RequestNotFoundError, NotAwaitingIdentityReviewError (409).
     */
    async repoint(
      principal: Principal,
      id: string,
      input: { subject_provider: string; subject_id: string; reason: string },
    ): Promise<PrivacyRequestResource> {
      return runUnitOfWork(db, async (unit) => {
        const row = await waiting(unit.tx, principal, id);
        const tasks = await deleteTasksOfRequest(unit.tx, id);
        const updated = await runAgain(unit, row, {
          at: toTimestamp(clock()),
          actor: principal,
          action: 'privacy_request.identity_repointed',
          details: { reason: input.reason, tasks_removed: tasks },
          extra: { subject_provider: input.subject_provider, subject_id: input.subject_id, subject_found: null },
        });
        return toResource(updated);
      });
    },

    /**
     * `POST …/{id}/confirm-no-data`: completes the request with its stored answer and the
     * confirmation that no personal data of the person is processed (audited as
     * `privacy_request.no_data_confirmed`).
     * @throws RequestNotFoundError, NotAwaitingIdentityReviewError (409).
     */
    async confirmNoData(principal: Principal, id: string, input: { reason: string }): Promise<PrivacyRequestResource> {
      return runUnitOfWork(db, async (unit) => {
        const row = await waiting(unit.tx, principal, id);
        const at = toTimestamp(clock());
        const stored = await findResult(unit.tx, id);
        const updated = await commitTransition(unit, row, {
          at,
          change: { status: 'completed', status_reason: null, completed_at: at },
          ...(stored
            ? {
                result: {
                  pkg: confirmed(stored.package, at),
                  report: confirmed(stored.report, at),
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
    },
  };
}

export type IdentityReview = ReturnType<typeof createIdentityReview>;
