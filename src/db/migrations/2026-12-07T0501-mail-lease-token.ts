import type { Kysely } from 'kysely';

/**
 * Who holds a privacy-center mail's lease (issue 33 item 2): `lease_token` of
 * `privacy_center_mails`, a random value written with `lease_expires_at` when a sender claims the
 * mail, NULL when nobody holds it. Marking the mail sent or putting it back requires the token, so a
 * sender whose lease lapsed (and was taken over) changes nothing. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_center_mails').addColumn('lease_token', 'text').execute();
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_center_mails').dropColumn('lease_token').execute();
}
