import { toTimestamp } from '../../lib/clock.js';
import { countOpenOptOuts } from '../../modules/opt-outs/opt-out.repository.js';
import { OPEN_OPT_OUT_STATUSES } from '../../modules/opt-outs/opt-out.types.js';
import type { PrivacyRequestService } from '../../modules/privacy-requests/privacy-request.service.js';
import type { OptOutDeps } from './deps.js';

/**
 * The queue's counts (PRODUCT §2.16) with the opt-outs' (§2.18): `open_opt_outs` (queued or
 * processing) and `overdue_opt_outs` (of those, past `due_at`), over `workspaceIds` (null: every
 * workspace), as of the service clock. While no data system takes an opt-out kind, every
 * opt-out is completed when filed and both are 0.
 */
export async function readQueueStats(
  deps: Pick<OptOutDeps, 'db' | 'clock'> & { privacyRequests: Pick<PrivacyRequestService, 'stats'> },
  workspaceIds: readonly string[] | null,
) {
  const ids = workspaceIds === null ? null : [...new Set(workspaceIds)];
  const [requests, optOuts] = await Promise.all([
    deps.privacyRequests.stats(ids),
    countOpenOptOuts(deps.db, ids, OPEN_OPT_OUT_STATUSES, toTimestamp(deps.clock())),
  ]);
  return { ...requests, open_opt_outs: optOuts.open, overdue_opt_outs: optOuts.overdue };
}
