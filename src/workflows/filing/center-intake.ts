import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import { type CenterIntakeDeps, verifyCenterSubmission } from './verify-center-submission.js';

/** The privacy center's intake, bound: a verified submission filed as a privacy request (PRODUCT §2.15). */
export interface CenterIntake {
  /** {@link verifyCenterSubmission}. */
  readonly verify: Bound<typeof verifyCenterSubmission>;
}

/** Binds the intake to `deps` (src/services.ts wires it once). */
export function bindCenterIntake(deps: CenterIntakeDeps): CenterIntake {
  return { verify: bindDeps(verifyCenterSubmission, deps) };
}
