import type { ConnectorConfig } from '../../config/connector-settings.js';
import type { Executor } from '../../db/executor.js';
import type { SecretBox } from '../../lib/secret-box.js';
import {
  type CollectionWarnings,
  type PlannedStatement,
  previewConnectorTask,
  type ProbeResult,
  testConnection,
} from '../../modules/connectors/connectors.js';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import { type DataSystemRow, findSystemById } from '../../modules/data-systems/data-system.repository.js';
import { DataSystemNotFoundError } from '../../modules/data-systems/data-system.types.js';
import { overlapCategories } from '../../modules/data-systems/data-task.fns.js';
import { subjectIdentities, systemTaskInput } from './connector-task-input.js';
import type { RequestType } from '../../modules/request-model/request-model.js';

/** `POST /api/v1/data-systems/{id}/preview` body (PRODUCT §2.14). */
export interface PreviewInput {
  subject_provider: string;
  subject_id: string;
  request_type: RequestType;
  /** Default: the system's categories. */
  scope?: string[];
}

/**
 * A database system's dry runs (PRODUCT §2.14): the preview of a request's statements and the
 * test of the connection. Both write nothing to the target; both refuse webhook and manual
 * systems (NotADatabaseSystemError). Connector failures are thrown as ConnectorError (never the URL).
 */
export function createDataSystemConnectorService(deps: {
  db: Executor;
  secretBox: SecretBox;
  connectors: ConnectorConfig;
  pseudonymKey: string;
}) {
  async function live(principal: Principal, id: string): Promise<DataSystemRow> {
    const found = await findSystemById(deps.db, id);
    if (!found || found.deleted_at !== null || !coversWorkspace(principal, found.workspace_id))
      throw new DataSystemNotFoundError(id);
    return found;
  }

  return {
    /**
     * The planned statements (placeholders, no values) with the rows each would touch, and the
     * database's warnings (PRODUCT §2.17: `cannot_mask` for a deletion's fields, `unindexed`).
     */
    async preview(
      principal: Principal,
      id: string,
      input: PreviewInput,
    ): Promise<{
      request_type: string;
      categories: string[];
      statements: PlannedStatement[];
      warnings: CollectionWarnings[] | null;
    }> {
      const row = await live(principal, id);
      const systemCategories = JSON.parse(row.categories) as string[];
      const categories = overlapCategories(systemCategories, input.scope ?? systemCategories);
      const identities = await subjectIdentities(deps.db, { workspace_id: row.workspace_id, ...input });
      const task = systemTaskInput(row, deps, { requestType: input.request_type, categories, identities });
      const { statements, warnings } = await previewConnectorTask(task);
      return { request_type: input.request_type, categories, statements, warnings };
    },

    /** Reachability, latency and per-collection exists / can read / can write. */
    async test(principal: Principal, id: string): Promise<ProbeResult> {
      const row = await live(principal, id);
      return testConnection(systemTaskInput(row, deps, { requestType: 'access', categories: [], identities: {} }));
    },
  };
}

export type DataSystemConnectorService = ReturnType<typeof createDataSystemConnectorService>;
