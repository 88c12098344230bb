import type { Executor } from '../../db/executor.js';
import { toTimestamp } from '../../lib/clock.js';
import { tasksOfRequest } from '../../modules/data-systems/data-task.repository.js';
import { nothingFoundAsks, resultsLinkDue, statusObjectOfRow } from '../../modules/drp/drp-record.fns.js';
import type { DrpRequestListRow } from '../../modules/drp/drp-request.repository.js';
import type { DrpStatusObject } from '../../modules/drp/drp.types.js';
import { resultsLinkToken, statusLinkUrl } from '../../modules/drp/results-link.fns.js';
import { ensureStatusToken } from '../../modules/privacy-center/status-token.repository.js';
import { taskFoundSomething } from '../../modules/privacy-requests/lifecycle/lifecycle.fns.js';

/** What a results link is made of (wired once in src/services.ts). */
export interface ResultsLinks {
  /** `PUBLIC_BASE_URL`: the base of the person's status links. */
  readonly publicBaseUrl: string;
  /** The service's pseudonym key: the links' tokens are derived under it. */
  readonly key: string;
}

/** What reading a status object needs. */
export interface DrpStatusDeps {
  readonly db: Executor;
  /** Left out: no `results_url` is made (the officer's list reads the status and reason only). */
  readonly resultsLinks?: ResultsLinks;
  /**
   * A waiting request's `user_verification_url` (modules/drp/user-verification.fns.ts): given only
   * on the agent's own reads (Status, the exercise's answer); left out for callbacks and the list.
   */
  readonly verificationUrl?: (workspaceId: string, requestId: string) => string;
}

/**
 * The status object now of a DRP record read with the state of what it filed (DRP §3.03; PRODUCT
 * §2.19 "Status object"), with what the joined row does not hold: whether a completed request
 * found nothing (its own step found nothing and none of its data tasks found anything, as the
 * identity review of §2.13 decides: `denied`/`no_match`), and a fulfilled access's `results_url`,
 * the person's status link, whose token is registered here the first time it is named
 * (docs/decisions.md, "The DRP results link"). The Status route, the revoke, the callbacks'
 * sweep and the officer's list all read it here, so they agree.
 */
export async function statusObjectNow(deps: DrpStatusDeps, row: DrpRequestListRow, now: Date): Promise<DrpStatusObject> {
  const prId = row.privacy_request_id;
  const nothingFound =
    prId !== null && nothingFoundAsks(row) ? !(await tasksOfRequest(deps.db, prId)).some(taskFoundSomething) : false;
  let resultsUrl: string | null = null;
  if (prId !== null && deps.resultsLinks !== undefined && resultsLinkDue(row, nothingFound, now)) {
    const token = resultsLinkToken(deps.resultsLinks.key, prId);
    await ensureStatusToken(deps.db, { token, requestId: prId, workspaceId: row.workspace_id, at: toTimestamp(now) });
    resultsUrl = statusLinkUrl(deps.resultsLinks.publicBaseUrl, row.workspace_id, prId, token);
  }
  const verificationUrl =
    row.status === 'awaiting_person' && deps.verificationUrl !== undefined
      ? deps.verificationUrl(row.workspace_id, row.request_id)
      : null;
  return statusObjectOfRow(row, now, { nothingFound, resultsUrl, verificationUrl });
}
