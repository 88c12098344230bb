import type { Kysely } from 'kysely';
import { createIndex, DIGEST, notNull, primaryKey, TIME } from './columns.js';
import { dropTables } from './statements.js';

/**
 * A DRP exercise waiting for the person's own code (issue 37, PRODUCT §2.19 "Identity",
 * `need_user_verification`): `drp_user_verifications`, one row per such DRP request, holding
 * what it will file (`filing_sealed`: sealed under the service's secrets key, since it names the
 * person's address), the code's keyed hash, expiry and tries left (§2.15's rules), when the code
 * was verified, and the end of the 14 days (`expires_at`, found by `drp_user_verifications_expiry_idx`).
 * The row is deleted in the commit that files the request, or when the 14 days pass. The
 * verification link's token is derived from the request id under the service's key, so no token
 * is stored. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('drp_user_verifications')
    .addColumn('request_id', 'varchar(36)', primaryKey)
    .addColumn('workspace_id', 'varchar(200)', notNull)
    .addColumn('filing_sealed', 'text', notNull)
    .addColumn('code_hash', DIGEST)
    .addColumn('code_expires_at', TIME)
    .addColumn('attempts_left', 'integer', notNull)
    .addColumn('codes_sent', 'integer', notNull)
    .addColumn('verified_at', TIME)
    .addColumn('expires_at', TIME, notNull)
    .addColumn('created_at', TIME, notNull)
    .execute();
  await createIndex(db, 'drp_user_verifications_expiry_idx', 'drp_user_verifications', ['expires_at']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['drp_user_verifications']);
}
