import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { OptOutDeps } from './deps.js';
import { fileOptOut } from './file-opt-out.js';
import { listOptOuts } from './list-opt-outs.js';
import { readOptOut } from './read-opt-out.js';
import { readPreferences } from './read-preferences.js';

/** The opt-out use cases bound to their dependencies: what the routes call (PRODUCT §2.18). */
export interface OptOutUseCases {
  /** File an opt-out or opt-in under an Idempotency-Key: {@link fileOptOut}. */
  readonly file: Bound<typeof fileOptOut>;
  /** One opt-out, or null: {@link readOptOut}. */
  readonly read: Bound<typeof readOptOut>;
  /** A page of opt-outs: {@link listOptOuts}. */
  readonly list: Bound<typeof listOptOuts>;
  /** A subject's standing choices: {@link readPreferences}. */
  readonly preferences: Bound<typeof readPreferences>;
}

/** Binds the opt-out use cases to `deps` (src/services.ts wires them once). */
export function bindOptOutUseCases(deps: OptOutDeps): OptOutUseCases {
  return {
    file: bindDeps(fileOptOut, deps),
    read: bindDeps(readOptOut, deps),
    list: bindDeps(listOptOuts, deps),
    preferences: bindDeps(readPreferences, deps),
  };
}
