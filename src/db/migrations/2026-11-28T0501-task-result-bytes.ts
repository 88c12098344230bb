import { type Kysely, sql } from 'kysely';
import { createIndex } from './columns.js';

/**
 * A task result's size (issue 23 item 2): `data_tasks.result_bytes`, the bytes of the stored
 * `result` (its JSON, UTF-8), written with the result, and the index
 * `data_tasks_request_bytes (request_id, result_bytes)`, so the per-request cap
 * (`MAX_REQUEST_DATA_BYTES`) sums a few integers from the index instead of reading every stored
 * result again on every post. Existing results get their size here (`octet_length`, which SQLite
 * 3.43+ and PostgreSQL both have).
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_tasks').addColumn('result_bytes', 'integer').execute();
  await sql`update data_tasks set result_bytes = octet_length(result) where result is not null`.execute(db);
  await createIndex(db, 'data_tasks_request_bytes', 'data_tasks', ['request_id', 'result_bytes']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('data_tasks_request_bytes').execute();
  await db.schema.alterTable('data_tasks').dropColumn('result_bytes').execute();
}
