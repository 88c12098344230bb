import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { listInWorkspaces } from '../../db/row-match.js';
import { forUpdate } from '../../db/locking.js';
import type { WebhookEndpointTable } from '../../db/tables/outbound-event.table.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;

/** Inserts an endpoint. */
export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

/** One endpoint, or undefined. */
export async function findEndpoint(db: Executor, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One endpoint, locked for the rest of the transaction (PostgreSQL `FOR UPDATE`), or undefined. */
export async function lockEndpoint(db: Executor, id: string): Promise<WebhookEndpointRow | undefined> {
  return forUpdate(db, db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id)).executeTakeFirst();
}

/** Endpoints, oldest first; all of them, or of the given workspaces. */
export async function listEndpoints(db: Executor, workspaces: readonly string[] | '*'): Promise<WebhookEndpointRow[]> {
  return listInWorkspaces(db, 'webhook_endpoints', workspaces);
}

/** Changes an endpoint's columns. @returns the row after the change, or undefined if it is gone. */
export async function updateEndpoint(
  db: Executor,
  id: string,
  fields: Updateable<WebhookEndpointTable>,
): Promise<WebhookEndpointRow | undefined> {
  await db.updateTable('webhook_endpoints').set(fields).where('id', '=', id).execute();
  return findEndpoint(db, id);
}

/** Deletes an endpoint and every message queued or logged for it (their payloads go with them). */
export async function deleteEndpoint(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('outbound_messages').where('endpoint_id', '=', id).execute();
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** The number of endpoints of a workspace, enabled or not (`MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE`). */
export async function countEndpoints(db: Executor, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
