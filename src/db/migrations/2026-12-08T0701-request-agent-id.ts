import { type Kysely, sql } from 'kysely';
import { createIndex } from './columns.js';
import { addColumns, dropColumns, dropIndexes } from './statements.js';

/**
 * `privacy_requests.agent_id` (issue 37, PRODUCT §2.19 "In the queue": the list's `agent_id=…`
 * filter): the `id` of the request's `agent` (a DRP agent's `agent-id`, or through the privacy
 * center's agent path the keyed pseudonym of the agent's address); null for every other request.
 * Before, the filter read `drp_requests`, which the center's agent path never writes, so its
 * requests could not be found by their agent. Indexed with the workspace where it is set only
 * (a filing without an agent writes no index entry). Existing rows are backfilled from `agent`'s
 * JSON, read here rather than in SQL so one migration serves both stores. Frozen: never edit after
 * it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'privacy_requests', [['agent_id', 'varchar(200)']]);
  const rows: { id: string; agent: string }[] = await db
    .selectFrom('privacy_requests')
    .select(['id', 'agent'])
    .where('agent', 'is not', null)
    .execute();
  for (const row of rows) {
    const id = (JSON.parse(row.agent) as { id?: unknown }).id;
    if (typeof id !== 'string') continue;
    await db.updateTable('privacy_requests').set({ agent_id: id }).where('id', '=', row.id).execute();
  }
  await createIndex(db, 'privacy_requests_agent_idx', 'privacy_requests', ['workspace_id', 'agent_id'], (index) =>
    index.where(sql.ref('agent_id'), 'is not', null),
  );
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexes(db, ['privacy_requests_agent_idx']);
  await dropColumns(db, 'privacy_requests', ['agent_id']);
}
