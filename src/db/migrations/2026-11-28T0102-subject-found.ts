import type { Kysely } from 'kysely';

/**
 * Unmatched identities (issue 22, PRODUCT §2.13): `privacy_requests.subject_found`, whether the
 * request's own step found its identity in this service's store (1), found nothing (0), or has
 * not run yet (null). A request whose own step and systems all found nothing waits in
 * `action_required` as `identity_unmatched` instead of completing with "we hold nothing".
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').addColumn('subject_found', 'integer').execute();
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').dropColumn('subject_found').execute();
}
