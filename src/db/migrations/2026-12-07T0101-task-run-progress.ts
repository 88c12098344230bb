import type { Kysely } from 'kysely';

/**
 * What earlier runs of a data task already did (issue 32 item 6, PRODUCT §2.17 "a resumed erasure
 * reports all it did"): `data_tasks.run_progress`, JSON `{collections: {<name>: {masked, deleted}},
 * erased: {<category>: rows}}`, written by a connector erasure after each collection it commits
 * in the target, and added to the next run's counts when an interrupted run is run again. Counts
 * only, never values; cleared when the task ends.
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_tasks').addColumn('run_progress', 'text').execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_tasks').dropColumn('run_progress').execute();
}
