import type { Kysely } from 'kysely';

/**
 * Data systems and data tasks (issue 14 part 2, PRODUCT §2.9): `data_systems` are a workspace's
 * downstream systems (soft-deleted with `deleted_at`; `key` unique per workspace over every row,
 * deleted ones included, so a key always names one system: docs/decisions.md); `data_tasks` are
 * one request's work for one system (unique per request and system key, so a retried fan-out
 * adds nothing). `overdue_notified_at` records the one `data_task.overdue` event.
 * `api_tokens.systems` (JSON array, NULL = any system) limits a token's task results.
 * `privacy_requests_lease_idx` lets the claim find expired leases without walking the requests
 * that wait, unleased, for their tasks. Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_systems')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('key', 'varchar(63)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('request_types', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'varchar(40)')
    .addColumn('due_days', 'integer')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('data_systems_workspace_key')
    .on('data_systems')
    .columns(['workspace_id', 'key'])
    .unique()
    .execute();
  await db.schema
    .createTable('data_tasks')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('request_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('system_key', 'varchar(63)', (c) => c.notNull())
    .addColumn('request_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('due_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('completed_at', 'varchar(30)')
    .addColumn('result', 'text')
    .addColumn('overdue_notified_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('data_tasks_request_system')
    .on('data_tasks')
    .columns(['request_id', 'system_key'])
    .unique()
    .execute();
  await db.schema.createIndex('data_tasks_workspace').on('data_tasks').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('data_tasks_status_due').on('data_tasks').columns(['status', 'due_at']).execute();
  await db.schema.alterTable('api_tokens').addColumn('systems', 'text').execute();
  await db.schema
    .createIndex('privacy_requests_lease_idx')
    .on('privacy_requests')
    .columns(['status', 'lease_expires_at'])
    .execute();
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('privacy_requests_lease_idx').execute();
  await db.schema.alterTable('api_tokens').dropColumn('systems').execute();
  await db.schema.dropTable('data_tasks').execute();
  await db.schema.dropTable('data_systems').execute();
}
