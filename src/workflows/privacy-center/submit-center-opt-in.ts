import type { SubmitOutcome } from '../../modules/privacy-center/submission.service.js';
import type { OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import { type CenterOptOutDeps, fileGpcOptOut } from './center-opt-out-filing.js';

/**
 * An opt-in submitted at the privacy center (PRODUCT §2.18, `choice: "opt_in"`): nothing changes
 * yet. The submission and its code mail are stored (modules/privacy-center, as a request's,
 * §2.15); the opt-ins are filed only when the person enters the code (11 CCR §7028's two steps:
 * {@link verifyCenterOptIn}). As any center submission, one made with `Sec-GPC: 1` (`gpc`) also
 * records the `gpc` opt-out of sale and sharing (once per address); a later verified opt-in of
 * that kind is received after it and replaces the preference.
 */
export async function submitCenterOptIn(
  deps: Pick<CenterOptOutDeps, 'submissions' | 'optOuts' | 'pseudonymKey'>,
  workspaceId: string,
  input: { email: string; kinds: readonly OptOutKind[] },
  options: { gpc: boolean },
): Promise<SubmitOutcome> {
  const outcome = await deps.submissions.submitOptIn(workspaceId, input);
  if (outcome.kind === 'submitted' && options.gpc) await fileGpcOptOut(deps, workspaceId, input.email);
  return outcome;
}
