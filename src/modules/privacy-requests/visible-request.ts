import type { Executor } from '../../db/executor.js';
import { coversWorkspace, type Principal } from '../principals/principal.js';
import type { PrivacyRequestRow } from '../request-model/request-model.js';
import { RequestNotFoundError } from './privacy-request.errors.js';
import { findRequestById } from './privacy-request.repository.js';

/**
 * Request `id` when `principal` may see it (its workspace).
 * @throws RequestNotFoundError (absent, or outside the principal's workspaces: a 404 either way).
 */
export async function visibleRequest(executor: Executor, principal: Principal, id: string): Promise<PrivacyRequestRow> {
  const row = await findRequestById(executor, id);
  if (!row || !coversWorkspace(principal, row.workspace_id)) throw new RequestNotFoundError(id);
  return row;
}
