import type { Kysely } from 'kysely';
import { createIndex, DIGEST, ID, notNull, primaryKey, TIME } from './columns.js';
import { documentTable, lastWrite, workspaceTable } from './table-shapes.js';
import { dropTables } from './statements.js';

/**
 * The Data Rights Protocol 1.0 (issue 37, PRODUCT §2.19):
 *
 * - `drp_settings`: a workspace's DRP switch and directory entry; `business_id` unique across the
 *   service (`drp_settings_business_idx`).
 * - `drp_agents`: registered authorized agents (`agt_…`), one per `(workspace_id, agent_id)`
 *   (`drp_agents_agent_idx`, unique); `verify_key` is the standard Base64 of the Ed25519 key.
 * - `drp_pairings`: pair-wise tokens, only their SHA-256 (`token_hash`); `replaced_at` set when a
 *   newer pairing replaced it (valid 24 h longer). Voided tokens are deleted.
 * - `drp_requests`: DRP records (`request_id` a UUID), what they filed (`privacy_request_id`,
 *   `opt_out_id`), the kept flags and hints (`kept`, JSON: never a name, phone number or address),
 *   the last status object answered (`last_status`, JSON); `agent_request_id` unique per agent.
 * - `drp_digests`: SHA-256 of each signed body accepted, kept until its `expires-at` (single use).
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await documentTable(db, 'drp_settings')
    .addColumn('enabled', 'integer', notNull)
    .addColumn('business_id', 'varchar(100)', notNull)
    .addColumn('name', 'varchar(200)', notNull)
    .addColumn('supported_actions', 'text', notNull)
    .addColumn('details', 'text', notNull)
    .$call(lastWrite('varchar(300)'))
    .execute();
  await createIndex(db, 'drp_settings_business_idx', 'drp_settings', ['business_id'], (index) => index.unique());
  await workspaceTable(db, 'drp_agents')
    .addColumn('agent_id', 'varchar(100)', notNull)
    .addColumn('name', 'varchar(200)', notNull)
    .addColumn('verify_key', 'varchar(100)', notNull)
    .addColumn('key_fingerprint', DIGEST, notNull)
    .addColumn('details', 'text', notNull)
    .addColumn('confirm_with_consumer', 'integer', notNull)
    .addColumn('disabled', 'integer', notNull)
    .addColumn('paired_at', TIME)
    .addColumn('created_at', TIME, notNull)
    .addColumn('updated_at', TIME, notNull)
    .execute();
  await createIndex(db, 'drp_agents_agent_idx', 'drp_agents', ['workspace_id', 'agent_id'], (index) => index.unique());
  await createIndex(db, 'drp_agents_path_idx', 'drp_agents', ['agent_id']);
  await db.schema
    .createTable('drp_pairings')
    .addColumn('token_hash', DIGEST, primaryKey)
    .addColumn('agent_ref', ID, notNull)
    .addColumn('workspace_id', 'varchar(200)', notNull)
    .addColumn('created_at', TIME, notNull)
    .addColumn('replaced_at', TIME)
    .execute();
  await createIndex(db, 'drp_pairings_agent_idx', 'drp_pairings', ['agent_ref']);
  await db.schema
    .createTable('drp_requests')
    .addColumn('request_id', 'varchar(36)', primaryKey)
    .addColumn('workspace_id', 'varchar(200)', notNull)
    .addColumn('agent_ref', ID, notNull)
    .addColumn('agent_id', 'varchar(100)', notNull)
    .addColumn('agent_request_id', 'varchar(800)')
    .addColumn('exercise', 'varchar(30)', notNull)
    .addColumn('regime', 'varchar(20)')
    .addColumn('status', 'varchar(20)', notNull)
    .addColumn('reason', 'varchar(40)')
    .addColumn('processing_details', 'text')
    .addColumn('due_at', TIME, notNull)
    .addColumn('received_at', TIME, notNull)
    .addColumn('privacy_request_id', ID)
    .addColumn('opt_out_id', ID)
    .addColumn('status_callback', 'varchar(2000)')
    .addColumn('kept', 'text', notNull)
    .addColumn('revoked', 'integer', notNull)
    .addColumn('last_status', 'text')
    .execute();
  await createIndex(db, 'drp_requests_agent_request_idx', 'drp_requests', ['agent_ref', 'agent_request_id'], (index) =>
    index.unique(),
  );
  await createIndex(db, 'drp_requests_workspace_idx', 'drp_requests', ['workspace_id', 'received_at']);
  await createIndex(db, 'drp_requests_privacy_request_idx', 'drp_requests', ['privacy_request_id']);
  await db.schema
    .createTable('drp_digests')
    .addColumn('digest', DIGEST, primaryKey)
    .addColumn('request_id', 'varchar(36)')
    .addColumn('expires_at', TIME, notNull)
    .execute();
  await createIndex(db, 'drp_digests_expiry_idx', 'drp_digests', ['expires_at']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['drp_digests', 'drp_requests', 'drp_pairings', 'drp_agents', 'drp_settings']);
}
