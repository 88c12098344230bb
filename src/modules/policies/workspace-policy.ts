import type { Executor } from '../../db/executor.js';
import { mergePolicy } from './policy-merge.fns.js';
import { findLayers } from './policy.repository.js';
import type { Policy } from './policy.types.js';
import { readStoredSettings } from './stored-layer.fns.js';

/**
 * A workspace's effective policy (PRODUCT §2.4): its own layer over the defaults, read through
 * `db`. Privacy requests belong to a workspace, not a repository, so this is the policy their
 * lifecycle follows (`require_approval`, `confirm_no_data`, `review_packages`, retention…). Pass
 * the caller's transaction when it holds one: on SQLite a read through another executor would
 * wait for the transaction that holds the one connection. A stored field the API would refuse
 * today is treated as absent ({@link readStoredSettings}).
 */
export async function workspacePolicy(db: Executor, workspaceId: string): Promise<Policy> {
  const workspace = (await findLayers(db, workspaceId, '')).find((layer) => layer.repository === '');
  return mergePolicy({ workspace: workspace ? readStoredSettings(workspace.settings) : null, repository: null }).policy;
}
