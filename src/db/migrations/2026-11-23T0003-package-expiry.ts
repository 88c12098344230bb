import type { Kysely } from 'kysely';
import { createIndex, TIME } from './columns.js';

/**
 * Access and export packages expire (issue 11 item 5; docs/decisions.md "Packages expire"):
 * `request_results.package_expires_at` is when the package is deleted (the earlier of
 * `PACKAGE_RETENTION_DAYS` after completion and the first expiry of the change events it copied;
 * filled in by the retention sweeper, NULL until then), `package_expired_at` when it was. The
 * index serves the sweeper's "due now" search. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('request_results').addColumn('package_expires_at', TIME).execute();
  await db.schema.alterTable('request_results').addColumn('package_expired_at', TIME).execute();
  await createIndex(db, 'request_results_package_expires_at', 'request_results', ['package_expires_at']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('request_results_package_expires_at').execute();
  await db.schema.alterTable('request_results').dropColumn('package_expired_at').execute();
  await db.schema.alterTable('request_results').dropColumn('package_expires_at').execute();
}
