import type { OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import { type CenterOptOutDeps, type CenterOptOutRecord, fileCenterOptOut, fileGpcOptOut } from './center-opt-out-filing.js';

/** What the center's opt-out form came to: what was recorded, or the workspace has no center on. */
export type CenterOptOutOutcome = { kind: 'center_off' } | { kind: 'recorded'; opt_outs: CenterOptOutRecord[] };

/**
 * The privacy center's opt-out form (PRODUCT §2.18): no code (11 CCR §7026(d)), one opt-out per
 * kind with `source: "form"`, filed through the one opt-out path, and with `gpc` (the submission
 * came with `Sec-GPC: 1`) the `gpc` opt-out of sale and sharing first (once per address). A form
 * opt-out's key holds the UTC day of receipt: the same kinds submitted again that day (a double
 * submit) file once; another day files again, which moves the preference's source and time.
 * `kinds` are validated and without duplicates (the caller's schema).
 */
export async function recordCenterOptOuts(
  deps: Pick<CenterOptOutDeps, 'optOuts' | 'settings' | 'clock' | 'pseudonymKey'>,
  workspaceId: string,
  input: { email: string; kinds: readonly OptOutKind[]; gpc: boolean },
): Promise<CenterOptOutOutcome> {
  const settings = await deps.settings.get(workspaceId);
  if (!settings?.enabled) return { kind: 'center_off' };
  const day = deps.clock().toISOString().slice(0, 10);
  const recorded: CenterOptOutRecord[] = [];
  if (input.gpc) recorded.push(await fileGpcOptOut(deps, workspaceId, input.email));
  for (const kind of input.kinds) recorded.push(await fileCenterOptOut(deps, workspaceId, input.email, kind, 'form', day));
  return { kind: 'recorded', opt_outs: recorded };
}
