import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import type { Principal } from '../../modules/principals/principal.js';
import { toResource } from '../../modules/privacy-requests/privacy-request.fns.js';
import { lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import type { PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';
import { runAgain } from '../requests/run-again.js';
import { reopenTasks } from '../tasks/task-reopen.js';
import { checkAwaitingReview } from './review-checks.js';

/** What re-pointing needs. */
export interface RepointDeps {
  readonly db: Executor;
  readonly clock: Clock;
  /** `PUBLIC_BASE_URL`: the links of the `data_task.created` events of re-opened tasks. */
  readonly publicBaseUrl: string;
  /** Seals what a connector keeps for its run (the secret box); without it nothing is kept. */
  readonly seal?: ((plaintext: string) => string) | undefined;
}

/**
 * `POST …/{id}/identity` (PRODUCT §2.13, §2.17): names the identity the request meant; its data tasks are re-opened
 * for it and it goes back to `queued` and runs again (audited as
 * `privacy_request.identity_repointed` with `tasks_reopened`; each task as `data_task.reopened`).
 * @throws RequestNotFoundError, NotAwaitingIdentityReviewError (409).
 */
export async function repointIdentity(
  deps: RepointDeps,
  principal: Principal,
  id: string,
  input: { subject_provider: string; subject_id: string; reason: string },
): Promise<PrivacyRequestResource> {
  const { db, clock, publicBaseUrl, seal } = deps;
  return runUnitOfWork(db, async (unit) => {
    const row = checkAwaitingReview(await lockRequest(unit.tx, id), principal, id);
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
}
