import type { Executor } from '../../db/executor.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { Clock } from '../../lib/clock.js';
import { listPackageRedactions } from './list-redactions.js';
import { releasePackage } from './release-package.js';
import { removeRedaction } from './remove-redaction.js';
import { withholdValue } from './withhold-value.js';

/** The review of a package before release (PRODUCT §2.20), bound. */
export interface PackageReview {
  /** {@link withholdValue}. */
  readonly withhold: Bound<typeof withholdValue>;
  /** {@link removeRedaction}. */
  readonly removeRedaction: Bound<typeof removeRedaction>;
  /** {@link listPackageRedactions}. */
  readonly redactions: Bound<typeof listPackageRedactions>;
  /** {@link releasePackage}. */
  readonly release: Bound<typeof releasePackage>;
}

/** Binds the review to `deps` (src/services.ts wires it once). */
export function bindPackageReview(deps: { db: Executor; clock: Clock }): PackageReview {
  return {
    withhold: bindDeps(withholdValue, deps),
    removeRedaction: bindDeps(removeRedaction, deps),
    redactions: bindDeps(listPackageRedactions, deps),
    release: bindDeps(releasePackage, deps),
  };
}
