import { OPT_OUT_KINDS, type OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import type { VerifyOutcome } from '../../modules/privacy-center/privacy-center.types.js';
import { type CenterOptOutDeps, type CenterOptOutRecord, fileCenterOptOut } from './center-opt-out-filing.js';

/** What verifying an opt-in's submission came to: the opt-ins recorded, or why not (as a request's verification). */
export type CenterOptInOutcome =
  Exclude<VerifyOutcome, { kind: 'verified' }> | { kind: 'recorded'; opt_outs: CenterOptOutRecord[] };

/**
 * Tries `code` on the opt-in submission `id` of `workspaceId` (a request's submission is
 * `not_found`, its code untried); once verified, files one opt-in per kind (PRODUCT §2.18,
 * 11 CCR §7028): `choice: "opt_in"`, `source: "form"`, as the person (`subject:<pseudonym>`),
 * received now (it takes effect when confirmed), through the one filing path under a key derived
 * from the submission and kind ({@link fileCenterOptOut}), so verifying again files nothing new
 * and answers the same.
 */
export async function verifyCenterOptIn(
  deps: Pick<CenterOptOutDeps, 'submissions' | 'optOuts' | 'pseudonymKey'>,
  workspaceId: string,
  id: string,
  code: string,
): Promise<CenterOptInOutcome> {
  const outcome = await deps.submissions.verify(workspaceId, id, code, 'opt_in');
  if (outcome.kind !== 'verified') return outcome;
  const s = outcome.submission;
  const kinds = (s.optInKinds ?? []).filter((k): k is OptOutKind => (OPT_OUT_KINDS as readonly string[]).includes(k));
  const recorded: CenterOptOutRecord[] = [];
  for (const kind of kinds)
    recorded.push(await fileCenterOptOut(deps, workspaceId, s.email, kind, 'form', `opt-in:${s.id}`, 'opt_in'));
  return { kind: 'recorded', opt_outs: recorded };
}
