import type { Kysely } from 'kysely';
import { createIndex, DIGEST, notNull, TIME } from './columns.js';
import { addColumns, dropColumns, dropTables } from './statements.js';
import { workspaceTable } from './table-shapes.js';

/**
 * The privacy center's agent path (PRODUCT §2.19, 11 CCR §7063(a)):
 * - `privacy_center_settings.agent_requests` (integer, 0 or 1, default 0): whether the center
 *   takes requests from authorized agents outside DRP;
 * - `privacy_center_agent_submissions`: what an agent submitted before the person confirmed it
 *   (not a privacy request): the request type, the agent's address and name, the person's address,
 *   where the person's signed permission is (`proof_ref`), the agent's code as a keyed hash with its
 *   expiry and attempts left, when it was submitted and verified, and the person's confirmation
 *   link's token as a hash (`confirm_hash`, set at verification). Deleted when the person answers,
 *   24 h after submission while unverified, and 14 days after verification without an answer;
 * - `request_notify_addresses.agent_email`: where a request filed through the agent path also
 *   sends its received, extended, completed and rejected mails (to the agent, without a link or
 *   any data); null for every other request, blanked with `email` by the request's last mail.
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'privacy_center_settings', [['agent_requests', 'integer', (c) => c.notNull().defaultTo(0)]]);
  await addColumns(db, 'request_notify_addresses', [['agent_email', 'varchar(254)']]);
  await workspaceTable(db, 'privacy_center_agent_submissions')
    .addColumn('request_type', 'varchar(20)', notNull)
    .addColumn('agent_email', 'varchar(254)', notNull)
    .addColumn('agent_name', 'varchar(200)', notNull)
    .addColumn('subject_email', 'varchar(254)', notNull)
    .addColumn('proof_ref', 'varchar(500)', notNull)
    .addColumn('code_hash', DIGEST, notNull)
    .addColumn('code_expires_at', TIME, notNull)
    .addColumn('attempts_left', 'integer', notNull)
    .addColumn('submitted_at', TIME, notNull)
    .addColumn('verified_at', TIME)
    .addColumn('confirm_hash', DIGEST)
    .execute();
  await createIndex(db, 'privacy_center_agent_submissions_submitted', 'privacy_center_agent_submissions', ['submitted_at']);
  await createIndex(db, 'privacy_center_agent_submissions_verified', 'privacy_center_agent_submissions', ['verified_at']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['privacy_center_agent_submissions']);
  await dropColumns(db, 'request_notify_addresses', ['agent_email']);
  await dropColumns(db, 'privacy_center_settings', ['agent_requests']);
}
