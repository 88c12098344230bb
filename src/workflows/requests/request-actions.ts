import type { Executor } from '../../db/executor.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { Clock } from '../../lib/clock.js';
import { actOnRequest } from './act-on-request.js';
import { assignRequest } from './assignment.js';
import { proceedWithRepeat } from './proceed-repeat.js';
import { resumeControllerNamed } from './resume-controller-named.js';

/** The operator's actions on requests, bound to the database and clock: what routes call. */
export interface PrivacyRequestActions {
  /** Approve, reject, cancel, extend, corrections: {@link actOnRequest}. */
  readonly act: Bound<typeof actOnRequest>;
  /** Assign to an operator or to nobody: {@link assignRequest}. */
  readonly assign: Bound<typeof assignRequest>;
  /** A request waiting as a repeat goes on (PRODUCT §2.20): {@link proceedWithRepeat}. */
  readonly proceed: Bound<typeof proceedWithRepeat>;
  /** Requests waiting for a named controller run on: {@link resumeControllerNamed}. */
  readonly controllerNamed: Bound<typeof resumeControllerNamed>;
}

/** Binds the operator actions to `deps` (src/services.ts wires them once). */
export function bindRequestActions(deps: { db: Executor; clock: Clock }): PrivacyRequestActions {
  return {
    act: bindDeps(actOnRequest, deps),
    assign: bindDeps(assignRequest, deps),
    proceed: bindDeps(proceedWithRepeat, deps),
    controllerNamed: bindDeps(resumeControllerNamed, deps),
  };
}
