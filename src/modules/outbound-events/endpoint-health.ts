import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { recordAudit } from '../audit/audit.repository.js';
import { clearFailing, disableEndpoint, noteFailure } from './endpoint-health.repository.js';
import { enqueueEvent } from './outbox.repository.js';

/** How long an endpoint may fail every attempt before it is disabled (PRODUCT §2.8; Svix does the same). */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/** An endpoint's state as its claimed message saw it. */
export interface EndpointState {
  endpoint_id: string;
  workspace_id: string;
  failing_since: string | null;
}

/**
 * Follows an endpoint's health after one attempt (PRODUCT §2.8): a success ends its run of
 * failures; a failure starts one, and when the run has lasted {@link DISABLE_AFTER_MS} the
 * endpoint is disabled in one unit of work: its pending messages fail, `webhook_endpoint.disabled`
 * goes to the workspace's other endpoints (the outbox skips the disabled one) and the audit trail
 * records it (actor `worker`).
 * @returns true when this attempt disabled the endpoint.
 */
export async function followEndpointHealth(db: Kysely<DB>, state: EndpointState, ok: boolean, at: Date): Promise<boolean> {
  if (ok) {
    if (state.failing_since !== null) await clearFailing(db, state.endpoint_id);
    return false;
  }
  const now = at.toISOString();
  const since = state.failing_since ?? (await noteFailure(db, state.endpoint_id, now));
  if (since === undefined || at.getTime() - Date.parse(since) < DISABLE_AFTER_MS) return false;
  return runUnitOfWork(db, async (unit) => {
    if (!(await disableEndpoint(unit.tx, state.endpoint_id, now))) return false;
    const data = { endpoint_id: state.endpoint_id, workspace_id: state.workspace_id, failing_since: since, disabled_at: now };
    enqueueEvent(unit, { workspaceId: state.workspace_id, type: 'webhook_endpoint.disabled', data, occurredAt: now });
    recordAudit(unit, {
      actor: 'worker',
      action: 'webhook_endpoint.disabled',
      targetType: 'webhook_endpoint',
      targetId: state.endpoint_id,
      workspaceId: state.workspace_id,
      details: { failing_since: since },
      occurredAt: now,
    });
    return true;
  });
}
