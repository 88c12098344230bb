import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import { confirmNoData } from './confirm-no-data.js';
import { previewNoData } from './preview-no-data.js';
import { type RepointDeps, repointIdentity } from './repoint-identity.js';

/**
 * The review of a request for an identity nothing matched (PRODUCT §2.13), bound: re-point it to
 * the identity it meant (it runs again from the start, its stored answer dropped and every data
 * task re-opened for the new identity: PRODUCT §2.17), or confirm the no-data answer (it completes
 * with the Art. 15(1) confirmation), or preview that confirmation. Each in one transaction under
 * the request's row lock, through the lifecycle's one writer, audited with the actor and the
 * reason (never the identity: the audit trail holds no subject id).
 */
export interface IdentityReview {
  readonly noDataPreview: Bound<typeof previewNoData>;
  readonly repoint: Bound<typeof repointIdentity>;
  readonly confirmNoData: Bound<typeof confirmNoData>;
}

/** Binds the identity review to `deps` (src/services.ts wires it once). */
export function bindIdentityReview(deps: RepointDeps): IdentityReview {
  return {
    noDataPreview: bindDeps(previewNoData, deps),
    repoint: bindDeps(repointIdentity, deps),
    confirmNoData: bindDeps(confirmNoData, deps),
  };
}
