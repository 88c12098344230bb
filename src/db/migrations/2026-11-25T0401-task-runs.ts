import { type Kysely, sql } from 'kysely';
import { createIndex } from './columns.js';
import { leaseColumns } from './table-shapes.js';
import { addColumns, dropColumns, dropIndexes } from './statements.js';

/**
 * Data tasks the service runs itself (issue 24, PRODUCT §2.14: a database connector's task is
 * executed by the worker): `executor`, the kind of system that does the task (`webhook`,
 * `manual`, and later the connectors), fixed when the task is created; a lease with retries like a
 * request's (`attempts`, `lease_owner`, `lease_expires_at`, `next_attempt_at`); and the subject's
 * identities as they were when the task was created (`identities_ciphertext`, sealed with the
 * service's secret box; cleared when the task ends), since a deletion erases them here before
 * the worker runs the task in the system. Existing
 * tasks are `webhook` when their system has an endpoint, else `manual`. Frozen: never edit after
 * it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addColumns(db, 'data_tasks', [
    ['executor', 'varchar(20)', (c) => c.notNull().defaultTo('manual')],
    ...leaseColumns('varchar(200)'),
    ['identities_ciphertext', 'text'],
  ]);
  await sql`
    update data_tasks set executor = 'webhook'
    where exists (
      select 1 from data_systems s
      where s.workspace_id = data_tasks.workspace_id and s.key = data_tasks.system_key and s.endpoint_id is not null
    )`.execute(db);
  // The runner's claim: pending tasks of one executor, oldest first.
  await createIndex(db, 'data_tasks_runnable', 'data_tasks', ['status', 'executor', 'id']);
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexes(db, ['data_tasks_runnable']);
  await dropColumns(db, 'data_tasks', [
    'identities_ciphertext',
    'next_attempt_at',
    'lease_expires_at',
    'lease_owner',
    'attempts',
    'executor',
  ]);
}
