import { type Kysely, sql } from 'kysely';
import { createIndex, TIME } from './columns.js';

/**
 * An answer in transit survives a deletion (issue 22 item 7, PRODUCT §2.13):
 *
 * - `request_results.package_fetched_at`: when the package was first fetched (delivered), null
 *   until then. Packages stored before this column read as not yet delivered.
 * - `request_results.package_erasure_held`: JSON list of the data categories a deletion of the
 *   same subject erases from this package once it has been fetched once (or drops with it when it
 *   expires); null when no erasure waits. Indexed only where set (`request_results_held_idx`):
 *   the retention sweep reads the few waiting ones, never the table.
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('request_results').addColumn('package_fetched_at', TIME).execute();
  await db.schema.alterTable('request_results').addColumn('package_erasure_held', 'text').execute();
  await createIndex(db, 'request_results_held_idx', 'request_results', ['request_id'], (index) =>
    index.where(sql.ref('package_erasure_held'), 'is not', null),
  );
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('request_results_held_idx').execute();
  await db.schema.alterTable('request_results').dropColumn('package_erasure_held').execute();
  await db.schema.alterTable('request_results').dropColumn('package_fetched_at').execute();
}
