import type { Kysely } from 'kysely';
import { createIndex, TIME, notNull } from './columns.js';
import { workspaceTable } from './table-shapes.js';
import { dropTables } from './statements.js';

/**
 * Outbound events (issue 14 part 1, PRODUCT §2.8): `webhook_endpoints` are a workspace's
 * receivers (secret encrypted like integration secrets; the previous secret keeps signing until
 * `previous_secret_expires_at` after a rotation; `event_types` is a JSON array, NULL for every
 * type). `outbound_messages` is the transactional outbox: one row per event per subscribed
 * endpoint, written in the transaction of the change it reports, delivered by the worker.
 * Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await workspaceTable(db, 'webhook_endpoints')
    .addColumn('url', 'text', notNull)
    .addColumn('description', 'text')
    .addColumn('event_types', 'text')
    .addColumn('secret_ciphertext', 'text', notNull)
    .addColumn('previous_secret_ciphertext', 'text')
    .addColumn('previous_secret_expires_at', TIME)
    .addColumn('failing_since', TIME)
    .addColumn('disabled_at', TIME)
    .addColumn('created_at', TIME, notNull)
    .execute();
  await createIndex(db, 'webhook_endpoints_workspace', 'webhook_endpoints', ['workspace_id', 'id']);
  await workspaceTable(db, 'outbound_messages', 'endpoint_id')
    .addColumn('event_type', 'varchar(60)', notNull)
    .addColumn('payload', 'text', notNull)
    .addColumn('status', 'varchar(20)', notNull)
    .addColumn('attempts', 'text', notNull)
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', TIME)
    .addColumn('lease_until', TIME)
    .addColumn('created_at', TIME, notNull)
    .execute();
  await createIndex(db, 'outbound_messages_due', 'outbound_messages', ['status', 'next_attempt_at']);
  await createIndex(db, 'outbound_messages_endpoint', 'outbound_messages', ['endpoint_id', 'id']);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['outbound_messages', 'webhook_endpoints']);
}
