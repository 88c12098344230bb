import type { Kysely } from 'kysely';

/**
 * Requests filed by an authorized agent (issue 37, PRODUCT §2.19): `privacy_requests.agent`,
 * JSON `{id, name, drp_request_id, proof_ref}` of the agent that filed it (the request
 * resource's `agent`); null for every other request. Set at filing only; not indexed (the DRP
 * records, `drp_requests`, find an agent's requests). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').addColumn('agent', 'text').execute();
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').dropColumn('agent').execute();
}
