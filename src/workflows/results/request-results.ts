import type { Executor } from '../../db/executor.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { Clock } from '../../lib/clock.js';
import { readDeletionKept } from './read-deletion-kept.js';
import { readResult } from './read-result.js';

/** What processing a request produced, as served (PRODUCT §2.3 "Results", §2.11), bound. */
export interface RequestResultsService {
  /** {@link readResult}. */
  readonly read: Bound<typeof readResult>;
  /** {@link readDeletionKept}. */
  readonly deletionKept: Bound<typeof readDeletionKept>;
}

/** Binds the results to `deps` (src/services.ts wires them once). */
export function bindRequestResults(deps: { db: Executor; clock: Clock }): RequestResultsService {
  return { read: bindDeps(readResult, deps), deletionKept: bindDeps(readDeletionKept, deps) };
}
