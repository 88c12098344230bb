import type { Kysely } from 'kysely';

/**
 * Outbound events (issue 14 part 1, PRODUCT §2.8): `webhook_endpoints` are a workspace's
 * receivers (secret encrypted like integration secrets; the previous secret keeps signing until
 * `previous_secret_expires_at` after a rotation; `event_types` is a JSON array, NULL for every
 * type). `outbound_messages` is the transactional outbox: one row per event per subscribed
 * endpoint, written in the transaction of the change it reports, delivered by the worker.
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', 'text')
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('previous_secret_ciphertext', 'text')
    .addColumn('previous_secret_expires_at', 'varchar(30)')
    .addColumn('failing_since', 'varchar(30)')
    .addColumn('disabled_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_workspace').on('webhook_endpoints').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createTable('outbound_messages')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(60)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('attempts', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(30)')
    .addColumn('lease_until', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbound_messages_due').on('outbound_messages').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('outbound_messages_endpoint').on('outbound_messages').columns(['endpoint_id', 'id']).execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbound_messages').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
