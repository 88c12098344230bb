import type { UnitOfWork } from '../../db/unit-of-work.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { fanOutTasks } from '../tasks/task-fanout.js';
import { recordAttemptFailure } from './record-attempt-failure.js';
import { type OwnStepDeps, recordOwnStep } from './record-own-step.js';
import { storeErasureReport } from './store-erasure-report.js';

/** How the worker's attempts change a request (PRODUCT §2.3, §2.9), bound to one worker's lease owner. */
export interface OwnStepRecorder {
  /** The outcome of the request's own step: {@link recordOwnStep}. */
  readonly record: Bound<typeof recordOwnStep>;
  /** A failed attempt: {@link recordAttemptFailure}. */
  readonly recordFailure: Bound<typeof recordAttemptFailure>;
  /** An erasure's report, in the unit of its effects: {@link storeErasureReport}. */
  readonly storeErasureReport: Bound<typeof storeErasureReport>;
  /** The request's data tasks, created and announced in `unit` ({@link fanOutTasks}); how many. */
  readonly fanOutTasks: (unit: UnitOfWork, request: PrivacyRequestRow) => Promise<number>;
}

/** Binds the worker's records to `deps` (jobs/worker.ts, once per worker). */
export function bindOwnStep(deps: OwnStepDeps): OwnStepRecorder {
  return {
    record: bindDeps(recordOwnStep, deps),
    recordFailure: bindDeps(recordAttemptFailure, deps),
    storeErasureReport: bindDeps(storeErasureReport, deps),
    fanOutTasks: (unit, request) => fanOutTasks(unit, request, deps.clock(), deps.publicBaseUrl, deps.seal),
  };
}
