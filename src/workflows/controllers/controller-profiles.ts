import type { Executor } from '../../db/executor.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { Clock } from '../../lib/clock.js';
import { readControllerProfile } from '../../modules/controllers/controller.repository.js';
import { writeControllerProfileVersion } from './write-controller-profile.js';

/** The controller profiles (PRODUCT §2.10), bound: read one (a module query) and write a new version. */
export interface ControllerService {
  /** The workspace's profile, or null when none is set: {@link readControllerProfile}. */
  readonly get: Bound<typeof readControllerProfile>;
  /** {@link writeControllerProfileVersion}. */
  readonly put: Bound<typeof writeControllerProfileVersion>;
}

/** Binds the controller profiles to `deps` (src/services.ts wires them once). */
export function bindControllerProfiles(deps: { db: Executor; clock: Clock }): ControllerService {
  return { get: bindDeps(readControllerProfile, deps.db), put: bindDeps(writeControllerProfileVersion, deps) };
}
