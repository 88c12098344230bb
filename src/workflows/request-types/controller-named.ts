import type { Executor } from '../../db/executor.js';
import { findControllerProfile } from '../../modules/controllers/controller.repository.js';
import type { HandlerOutcome } from './handler.types.js';

/** The `status_reason` of an access/export request waiting for its workspace's controller profile. */
export const CONTROLLER_UNNAMED = 'controller_unnamed';

/**
 * No package names nobody (PRODUCT §2.13, §2.10; GDPR Art. 13(1)(a), 15): an access or export
 * request of a workspace without a controller profile waits in `action_required` with
 * `status_reason: "controller_unnamed"`, before any work (no package built, no data task
 * created), until the profile is saved (`PUT …/workspaces/{id}/controller` runs it on).
 *
 * @returns the waiting outcome, or null when the workspace names its controller.
 */
export async function waitForController(tx: Executor, workspaceId: string): Promise<HandlerOutcome | null> {
  if (await findControllerProfile(tx, workspaceId)) return null;
  return { status: 'action_required', reason: CONTROLLER_UNNAMED, beforeWork: true };
}
