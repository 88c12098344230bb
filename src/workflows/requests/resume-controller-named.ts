import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import type { Principal } from '../../modules/principals/principal.js';
import { idsWaitingFor, lockRequest } from '../../modules/privacy-requests/privacy-request.repository.js';
import { CONTROLLER_UNNAMED } from '../request-types/controller-named.js';
import { runAgain } from './run-again.js';

/** How many waiting requests one transaction sends on when a controller is named. */
const RESUME_BATCH = 200;

/**
 * The workspace's controller profile was saved (PRODUCT §2.13): every access/export request
 * of it waiting with `status_reason: "controller_unnamed"` goes back to `queued` and runs on,
 * each audited as `privacy_request.controller_named` by `principal`. Called after the profile
 * is committed; a request that stopped waiting meanwhile (canceled) is left alone.
 *
 * @returns how many requests run on.
 */
export async function resumeControllerNamed(
  deps: { db: Executor; clock: Clock },
  principal: Principal,
  workspaceId: string,
): Promise<number> {
  const { db, clock } = deps;
  let resumed = 0;
  for (;;) {
    const ids = await idsWaitingFor(db, workspaceId, CONTROLLER_UNNAMED, RESUME_BATCH);
    let moved = 0;
    await runUnitOfWork(db, async (unit) => {
      const at = toTimestamp(clock());
      for (const id of ids) {
        const row = await lockRequest(unit.tx, id);
        if (row?.status !== 'action_required' || row.status_reason !== CONTROLLER_UNNAMED) continue;
        await runAgain(unit, row, { at, actor: principal, action: 'privacy_request.controller_named', details: {} });
        moved += 1;
      }
    });
    resumed += moved;
    if (ids.length < RESUME_BATCH || moved === 0) return resumed;
  }
}
