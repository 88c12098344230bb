import type { Kysely } from 'kysely';
import { isPostgres } from '../locking.js';
import { ID } from './columns.js';
import { addColumns, dropColumns } from './statements.js';

/**
 * Opt-outs propagated to data systems (issue 36 item 2, PRODUCT §2.18 "Propagation"):
 *
 * - `data_systems.third_party` (0/1, default 0): the system belongs to a third party the
 *   personal information was sold or shared to (11 CCR §7026(f)(2)), shown on the resource.
 * - `data_tasks.opt_out_id` (`oo_…`, NULL for a privacy request's task): the opt-out a task
 *   tells its system of. Such a task's `request_id` holds the same id, so the one unique key
 *   `(request_id, system_key)` keeps every owner's fan-out idempotent and the column stays
 *   NOT NULL (SQLite cannot drop a NOT NULL without copying the table).
 * - `data_tasks.request_type` widened to 30 characters on PostgreSQL (`object_direct_marketing`
 *   has 23; SQLite does not enforce the length).
 *
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'data_systems', [['third_party', 'integer', (c) => c.notNull().defaultTo(0)]]);
  await addColumns(db, 'data_tasks', [['opt_out_id', ID]]);
  if (isPostgres(db))
    await db.schema
      .alterTable('data_tasks')
      .alterColumn('request_type', (c) => c.setDataType('varchar(30)'))
      .execute();
}

/** Drops what {@link up} added (the widened column stays wide: narrowing could fail on stored rows). */
export async function down(db: Kysely<any>): Promise<void> {
  await dropColumns(db, 'data_tasks', ['opt_out_id']);
  await dropColumns(db, 'data_systems', ['third_party']);
}
