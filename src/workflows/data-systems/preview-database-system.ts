import { type CollectionWarnings, type PlannedStatement, previewConnectorTask } from '../../modules/connectors/connectors.js';
import { overlapCategories } from '../../modules/data-systems/data-task.fns.js';
import type { Principal } from '../../modules/principals/principal.js';
import type { RequestType } from '../../modules/request-model/request-model.js';
import { subjectIdentities, systemTaskInput } from './connector-task-input.js';
import { type DryRunDeps, liveSystem } from './dry-run-deps.js';

/** `POST /api/v1/data-systems/{id}/preview` body (PRODUCT §2.14). */
export interface PreviewInput {
  subject_provider: string;
  subject_id: string;
  request_type: RequestType;
  /** Default: the system's categories. */
  scope?: string[];
}

/**
 * A database system's preview (PRODUCT §2.14): the planned statements (placeholders, no values) with the rows each would touch, and the
 * database's warnings (PRODUCT §2.17: `cannot_mask` for a deletion's fields, `unindexed`).
 * Writes nothing to the target.
 * @throws DataSystemNotFoundError, NotADatabaseSystemError (a webhook or manual system),
 *   ConnectorError (never the URL).
 */
export async function previewDatabaseSystem(
  deps: DryRunDeps,
  principal: Principal,
  id: string,
  input: PreviewInput,
): Promise<{
  request_type: string;
  categories: string[];
  statements: PlannedStatement[];
  warnings: CollectionWarnings[] | null;
}> {
  const row = await liveSystem(deps.db, principal, id);
  const systemCategories = JSON.parse(row.categories) as string[];
  const categories = overlapCategories(systemCategories, input.scope ?? systemCategories);
  const identities = await subjectIdentities(deps.db, { workspace_id: row.workspace_id, ...input });
  const task = systemTaskInput(row, deps, { requestType: input.request_type, categories, identities });
  const { statements, warnings } = await previewConnectorTask(task);
  return { request_type: input.request_type, categories, statements, warnings };
}
