import { type Kysely, sql } from 'kysely';

/**
 * The queue's search by e-mail address (PRODUCT §2.13, §2.21: `subject_provider=email` matches
 * the address trimmed and without regard to case): `lower(trim(subject_id))` with the workspace,
 * only for requests by e-mail (`WHERE subject_provider = 'email'`), so a search is one index
 * lookup per workspace and a filing by another provider writes nothing here. The list names the
 * predicate as a literal, which is how both planners prove a partial index applies
 * (privacy-request-list.repository.ts `byEmail`). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index privacy_requests_email_subject_idx on privacy_requests (lower(trim(subject_id)), workspace_id) where subject_provider = 'email'`.execute(
    db,
  );
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('privacy_requests_email_subject_idx').execute();
}
