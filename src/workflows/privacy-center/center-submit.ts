import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { CenterOptOutDeps } from './center-opt-out-filing.js';
import { recordCenterOptOuts } from './record-center-opt-outs.js';
import { submitCenterOptIn } from './submit-center-opt-in.js';
import { submitCenterRequest } from './submit-center-request.js';
import { verifyCenterOptIn } from './verify-center-opt-in.js';

/** What a person submits at the privacy center, bound (PRODUCT §2.15, §2.18). */
export interface CenterSubmit {
  /** A request, waiting for its code; with `Sec-GPC: 1` also the `gpc` opt-out: {@link submitCenterRequest}. */
  readonly request: Bound<typeof submitCenterRequest>;
  /** The opt-out form, no code: {@link recordCenterOptOuts}. */
  readonly optOuts: Bound<typeof recordCenterOptOuts>;
  /** An opt-in, waiting for its code: {@link submitCenterOptIn}. */
  readonly optIn: Bound<typeof submitCenterOptIn>;
  /** An opt-in's code tried, and once right its opt-ins filed: {@link verifyCenterOptIn}. */
  readonly verifyOptIn: Bound<typeof verifyCenterOptIn>;
}

/** Binds the center's submissions to `deps` (src/services.ts wires them once). */
export function bindCenterSubmit(deps: CenterOptOutDeps): CenterSubmit {
  return {
    request: bindDeps(submitCenterRequest, deps),
    optOuts: bindDeps(recordCenterOptOuts, deps),
    optIn: bindDeps(submitCenterOptIn, deps),
    verifyOptIn: bindDeps(verifyCenterOptIn, deps),
  };
}
