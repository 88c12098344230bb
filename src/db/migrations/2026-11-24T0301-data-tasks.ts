import type { Kysely } from 'kysely';
import { createIndex, ID, TIME, notNull } from './columns.js';
import { workspaceTable } from './table-shapes.js';
import { dropColumns, dropIndexes, dropTables } from './statements.js';

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
  await workspaceTable(db, 'data_systems')
    .addColumn('key', 'varchar(63)', notNull)
    .addColumn('name', 'varchar(200)', notNull)
    .addColumn('categories', 'text', notNull)
    .addColumn('request_types', 'text', notNull)
    .addColumn('endpoint_id', ID)
    .addColumn('due_days', 'integer')
    .addColumn('created_at', TIME, notNull)
    .addColumn('updated_at', TIME, notNull)
    .addColumn('deleted_at', TIME)
    .execute();
  await createIndex(db, 'data_systems_workspace_key', 'data_systems', ['workspace_id', 'key'], (index) => index.unique());
  await workspaceTable(db, 'data_tasks', 'request_id')
    .addColumn('system_key', 'varchar(63)', notNull)
    .addColumn('request_type', 'varchar(20)', notNull)
    .addColumn('categories', 'text', notNull)
    .addColumn('status', 'varchar(20)', notNull)
    .addColumn('due_at', TIME, notNull)
    .addColumn('created_at', TIME, notNull)
    .addColumn('updated_at', TIME, notNull)
    .addColumn('completed_at', TIME)
    .addColumn('result', 'text')
    .addColumn('overdue_notified_at', TIME)
    .execute();
  await createIndex(db, 'data_tasks_request_system', 'data_tasks', ['request_id', 'system_key'], (index) => index.unique());
  await createIndex(db, 'data_tasks_workspace', 'data_tasks', ['workspace_id', 'id']);
  await createIndex(db, 'data_tasks_status_due', 'data_tasks', ['status', 'due_at']);
  await db.schema.alterTable('api_tokens').addColumn('systems', 'text').execute();
  await createIndex(db, 'privacy_requests_lease_idx', 'privacy_requests', ['status', 'lease_expires_at']);
}

/** Drops what {@link up} added (SQLite ≥ 3.35 drops columns). */
export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexes(db, ['privacy_requests_lease_idx']);
  await dropColumns(db, 'api_tokens', ['systems']);
  await dropTables(db, ['data_tasks', 'data_systems']);
}
