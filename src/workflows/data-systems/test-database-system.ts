import { type ProbeResult, testConnection } from '../../modules/connectors/connectors.js';
import type { Principal } from '../../modules/principals/principal.js';
import { systemTaskInput } from './connector-task-input.js';
import { type DryRunDeps, liveSystem } from './dry-run-deps.js';

/**
 * A database system's test (PRODUCT §2.14): reachability, latency and per-collection exists /
 * can read / can write. Writes nothing to the target.
 * @throws DataSystemNotFoundError, NotADatabaseSystemError, ConnectorError (never the URL).
 */
export async function testDatabaseSystem(deps: DryRunDeps, principal: Principal, id: string): Promise<ProbeResult> {
  const row = await liveSystem(deps.db, principal, id);
  return testConnection(systemTaskInput(row, deps, { requestType: 'access', categories: [], identities: {} }));
}
