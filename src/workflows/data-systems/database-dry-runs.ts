import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { DryRunDeps } from './dry-run-deps.js';
import { previewDatabaseSystem } from './preview-database-system.js';
import { testDatabaseSystem } from './test-database-system.js';

/** A database system's dry runs (PRODUCT §2.14), bound: what the data-systems routes call. */
export interface DataSystemConnectorService {
  /** {@link previewDatabaseSystem}. */
  readonly preview: Bound<typeof previewDatabaseSystem>;
  /** {@link testDatabaseSystem}. */
  readonly test: Bound<typeof testDatabaseSystem>;
}

/** Binds the dry runs to `deps` (src/services.ts wires them once). */
export function bindDatabaseDryRuns(deps: DryRunDeps): DataSystemConnectorService {
  return { preview: bindDeps(previewDatabaseSystem, deps), test: bindDeps(testDatabaseSystem, deps) };
}
