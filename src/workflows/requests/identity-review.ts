import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { NOT_SEARCHABLE } from '../../modules/data-systems/data-task.fns.js';
import { taskStatusesOfRequest } from '../../modules/data-systems/data-task-result.repository.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import { NotAwaitingIdentityReviewError, RequestNotFoundError } from '../../modules/privacy-requests/privacy-request.errors.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import { findRequestById, lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import { findResult } from '../../modules/privacy-requests/result.repository.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { IDENTITY_UNMATCHED } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { runAgain } from './run-again.js';
import { reopenTasks } from '../tasks/task-reopen.js';
import { commitTransition } from '../../modules/privacy-requests/lifecycle/transition.js';

/** What a confirmed no-data answer states (GDPR Art. 15(1): confirmation whether data is processed). */
export const NO_DATA_CONFIRMATION =
  'We have checked this service and every system that holds personal data for us: we do not process any personal data about you.';

/**
 * The confirmation when a system could not be searched with what the person gave (PRODUCT §2.17):
 * it says no more than was looked at; the answer names the systems not searched.
 */
export const NO_DATA_CONFIRMATION_SEARCHED =
  'We have checked this service and every system we could search with what you gave us: we found no personal data about you there. ' +
  'The systems we could not search are named in this answer.';

/**
 * What confirming no data tells the person (GDPR Art. 15(1)): that nothing is processed, or, when
 * a system could not be searched with what they gave (PRODUCT §2.17), that the systems it could
 * search hold nothing. The preview and the confirmation read it the same way.
 */
async function noDataStatement(db: Executor, id: string): Promise<string> {
  const unsearched = (await taskStatusesOfRequest(db, id)).some((t) => t.status === NOT_SEARCHABLE);
  return unsearched ? NO_DATA_CONFIRMATION_SEARCHED : NO_DATA_CONFIRMATION;
}

/** Adds the confirmation `statement` to a stored package or report (JSON text); null stays null. */
function confirmed(json: string | null, statement: string, at: string): string | null {
  if (json === null) return null;
  return JSON.stringify({
    ...(JSON.parse(json) as object),
    no_data_confirmation: { statement, confirmed_at: at },
  });
}

/**
 * An operator's review of a request for an identity nothing matched (PRODUCT §2.13): re-point it
 * to the identity it meant (it runs again from the start, its stored answer dropped and every
 * data task re-opened for the new identity: PRODUCT §2.17, task-reopen.ts), or
 * confirm the no-data answer (it completes with the Art. 15(1) confirmation). Each in one
 * transaction under the request's row lock, through the lifecycle's one writer, audited with the
 * actor and the reason (never the identity: the audit trail holds no subject id).
 */
export function createIdentityReview(deps: {
  db: Executor;
  clock: Clock;
  /** `PUBLIC_BASE_URL`: the links of the `data_task.created` events of re-opened tasks. */
  publicBaseUrl: string;
  /** Seals what a connector keeps for its run (the secret box); without it nothing is kept. */
  seal?: (plaintext: string) => string;
}) {
  const { db, clock, publicBaseUrl, seal } = deps;

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
      return { statement: await noDataStatement(db, id) };
    },

    /**
     * `POST …/{id}/identity`: names the identity the request meant; its data tasks are re-opened
     * for it and it goes back to `queued` and runs again (audited as
     * `privacy_request.identity_repointed` with `tasks_reopened`; each task as `data_task.reopened`).
     * @throws RequestNotFoundError, NotAwaitingIdentityReviewError (409).
     */
    async repoint(
      principal: Principal,
      id: string,
      input: { subject_provider: string; subject_id: string; reason: string },
    ): Promise<PrivacyRequestResource> {
      return runUnitOfWork(db, async (unit) => {
        const row = await waiting(unit.tx, principal, id);
        const now = clock();
        const identity = { subject_provider: input.subject_provider, subject_id: input.subject_id };
        // The tasks first, announced with the new identity (a deletion's erasure may remove what
        // the service knows of the subject before they run).
        const reopened = await reopenTasks(unit, { ...row, ...identity }, principal, now, publicBaseUrl, seal);
        const updated = await runAgain(unit, row, {
          at: toTimestamp(now),
          actor: principal,
          action: 'privacy_request.identity_repointed',
          details: { reason: input.reason, tasks_reopened: reopened },
          extra: { ...identity, subject_found: null },
          clearResult: true,
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
    },
  };
}

export type IdentityReview = ReturnType<typeof createIdentityReview>;
