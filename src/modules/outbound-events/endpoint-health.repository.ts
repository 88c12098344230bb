import type { Executor } from '../../db/executor.js';
import { findColumns, updateRows } from '../../db/row-match.js';

/** Ends an endpoint's run of failures (a delivery succeeded). */
export async function clearFailing(db: Executor, endpointId: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute();
}

/**
 * Notes a failed attempt at `at`: starts the endpoint's run of failures unless one runs already.
 * @returns when the run started, or undefined when the endpoint is gone or disabled.
 */
export async function noteFailure(db: Executor, endpointId: string, at: string): Promise<string | undefined> {
  await updateRows(db, 'webhook_endpoints', { failing_since: at }, { id: endpointId, failing_since: null });
  const row = await findColumns(db, 'webhook_endpoints', ['failing_since'], { id: endpointId, disabled_at: null });
  return row?.failing_since ?? undefined;
}

/**
 * Disables an endpoint at `at` unless it is disabled already, and fails its pending messages
 * (each gets a last attempt entry `endpoint_disabled`; `recover` sends them again once enabled).
 * @returns true when this call disabled it.
 */
export async function disableEndpoint(db: Executor, endpointId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: at, updated_at: at })
    .where('id', '=', endpointId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await failPendingMessages(db, endpointId);
  return true;
}

/** Fails every pending message of a disabled endpoint (`recover` queues them again once it is enabled). */
export async function failPendingMessages(db: Executor, endpointId: string): Promise<void> {
  await db
    .updateTable('outbound_messages')
    .set({ status: 'failed', next_attempt_at: null, lease_until: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}
