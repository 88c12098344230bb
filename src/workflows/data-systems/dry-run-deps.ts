import type { ConnectorConfig } from '../../config/connector-settings.js';
import type { Executor } from '../../db/executor.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { type DataSystemRow, findSystemById } from '../../modules/data-systems/data-system.repository.js';
import { DataSystemNotFoundError } from '../../modules/data-systems/data-system.types.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';

/** What a database system's dry runs need (PRODUCT §2.14). */
export interface DryRunDeps {
  readonly db: Executor;
  /** Opens the system's sealed connection URL. */
  readonly secretBox: SecretBox;
  /** Allowed hosts, statement timeout, row cap. */
  readonly connectors: ConnectorConfig;
  /** The key of the workspace's masking key (`connectorMaskingKey`). */
  readonly pseudonymKey: string;
}

/**
 * The live system `id` of `principal`'s workspaces.
 * @throws DataSystemNotFoundError (absent, deleted, or outside the principal's workspaces).
 */
export async function liveSystem(db: Executor, principal: Principal, id: string): Promise<DataSystemRow> {
  const found = await findSystemById(db, id);
  if (!found || found.deleted_at !== null || !coversWorkspace(principal, found.workspace_id))
    throw new DataSystemNotFoundError(id);
  return found;
}
