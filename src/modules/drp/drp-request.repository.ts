import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DrpRequestTable } from '../../db/tables/drp.table.js';

export type DrpRequestRow = Selectable<DrpRequestTable>;

/** Stores a new DRP record (PRODUCT §2.19). */
export async function insertDrpRequest(db: Executor, row: DrpRequestRow): Promise<void> {
  await db.insertInto('drp_requests').values(row).execute();
}

/** The DRP record `requestId`, or undefined. */
export async function findDrpRequest(db: Executor, requestId: string): Promise<DrpRequestRow | undefined> {
  return db.selectFrom('drp_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/** The `request_id` of the agent registration's record with `agentRequestId`, or undefined. */
export async function findByAgentRequestId(db: Executor, agentRef: string, agentRequestId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('drp_requests')
    .select('request_id')
    .where('agent_ref', '=', agentRef)
    .where('agent_request_id', '=', agentRequestId)
    .executeTakeFirst();
  return row?.request_id;
}

/** Changes a DRP record (what it filed, revoked, the last status object answered). */
export async function updateDrpRequest(db: Executor, requestId: string, changes: Updateable<DrpRequestTable>): Promise<void> {
  await db.updateTable('drp_requests').set(changes).where('request_id', '=', requestId).execute();
}

/** Drops a DRP record and its digest (a filing that failed after the record was stored). */
export async function dropDrpRequest(db: Executor, requestId: string): Promise<void> {
  await db.deleteFrom('drp_digests').where('request_id', '=', requestId).execute();
  await db.deleteFrom('drp_requests').where('request_id', '=', requestId).execute();
}
