import { type Kysely, sql } from 'kysely';

/**
 * Requests by e-mail address (issue 22, PRODUCT §2.13): `subject_provider: "email"` is matched
 * against the e-mail addresses identity events gave the workspace's subjects, without regard to
 * case and after trimming. This index serves that lookup (`lower(trim(email))` per workspace) on
 * both databases, so a request by e-mail never reads every subject of its workspace. Frozen:
 * never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index subjects_workspace_email on subjects (workspace_id, lower(trim(email)))`.execute(db);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subjects_workspace_email').execute();
}
