import type { UnitOfWork } from '../../db/unit-of-work.js';
import { toTimestamp } from '../../lib/clock.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { LeaseLost } from '../../modules/privacy-requests/privacy-request.errors.js';
import { extendLease, saveResultJson } from '../../modules/privacy-requests/lifecycle/request-state.repository.js';
import type { OwnStepDeps } from './record-own-step.js';

/**
 * The first step of an erasure (worker/erasure-step): its report is stored in the unit that
 * committed its effects, and the lease extended by `leaseMs`, while this worker holds it.
 * @throws LeaseLost when it does not.
 */
export async function storeErasureReport(
  deps: Pick<OwnStepDeps, 'clock' | 'owner'>,
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  report: string | null,
  leaseMs: number,
  found?: boolean,
): Promise<void> {
  const { clock, owner } = deps;
  const until = toTimestamp(new Date(clock().getTime() + leaseMs));
  // Whether the erasure found the identity is kept with its report: a resumed attempt reads it back.
  const subjectFound = found === undefined ? undefined : found ? 1 : 0;
  if (!(await extendLease(unit.tx, request.id, owner, until, subjectFound))) throw new LeaseLost();
  await saveResultJson(unit.tx, request.id, { pkg: null, report }, toTimestamp(clock()));
}
