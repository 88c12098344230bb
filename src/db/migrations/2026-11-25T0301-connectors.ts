import { type Kysely, sql } from 'kysely';
import { createIndex } from './columns.js';

/**
 * Database connectors (issue 24, PRODUCT §2.14): a data system gets a `kind` (`webhook`, `manual`,
 * `postgres`, `mysql`; existing rows: `webhook` when they have an endpoint, else `manual`), the
 * sealed connection URL (`connection_ciphertext`, AES-256-GCM under the service's secrets key),
 * its Fides `dataset` (JSON text) and the dataset's `fides_key`, unique per workspace among the
 * rows that hold one (NULLs are distinct in a unique index on SQLite and PostgreSQL alike; a
 * deleted system's is cleared, so the dataset can be registered again). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('data_systems')
    .addColumn('kind', 'varchar(20)', (c) => c.notNull().defaultTo('manual'))
    .execute();
  await db.schema.alterTable('data_systems').addColumn('connection_ciphertext', 'text').execute();
  await db.schema.alterTable('data_systems').addColumn('dataset', 'text').execute();
  await db.schema.alterTable('data_systems').addColumn('fides_key', 'varchar(200)').execute();
  await sql`UPDATE data_systems SET kind = 'webhook' WHERE endpoint_id IS NOT NULL`.execute(db);
  await createIndex(db, 'data_systems_workspace_fides_key', 'data_systems', ['workspace_id', 'fides_key'], (index) =>
    index.unique(),
  );
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('data_systems_workspace_fides_key').execute();
  for (const column of ['fides_key', 'dataset', 'connection_ciphertext', 'kind'])
    await db.schema.alterTable('data_systems').dropColumn(column).execute();
}
