import type { SubmitOutcome } from '../../modules/privacy-center/submission.service.js';
import type { RequestType } from '../../modules/request-model/request-model.js';
import { type CenterOptOutDeps, fileGpcOptOut } from './center-opt-out-filing.js';

/**
 * A request submitted at the privacy center (PRODUCT §2.15): the submission and its code mail
 * (modules/privacy-center), and when it came with `Sec-GPC: 1` (`gpc`) and was taken, the `gpc`
 * opt-out of sale and sharing for its address (§2.18; once per address and workspace). An
 * opt-out needs no code, so it is recorded now, not at verification.
 */
export async function submitCenterRequest(
  deps: Pick<CenterOptOutDeps, 'submissions' | 'optOuts' | 'pseudonymKey'>,
  workspaceId: string,
  input: { request_type: RequestType; email: string },
  options: { gpc: boolean },
): Promise<SubmitOutcome> {
  const outcome = await deps.submissions.submit(workspaceId, input);
  if (outcome.kind === 'submitted' && options.gpc) await fileGpcOptOut(deps, workspaceId, input.email);
  return outcome;
}
