import type { Kysely } from 'kysely';
import { createIndex, ID, WORKSPACE_ID, TIME, DIGEST, notNull, primaryKey } from './columns.js';
import { keyedTable, lastWrite, workspaceTable } from './table-shapes.js';
import { dropTables } from './statements.js';

/**
 * Initial schema: privacy requests, idempotency records, policy layers and their versions,
 * API tokens, audit events, service keys. Frozen: never edit after it lands; add a new file.
 * Portable across SQLite and PostgreSQL: times are RFC 3339 UTC text (sortable), JSON is text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await workspaceTable(db, 'privacy_requests')
    .addColumn('request_type', 'varchar(20)', notNull)
    .addColumn('scope', 'text', notNull)
    .addColumn('subject_provider', 'varchar(100)', notNull)
    .addColumn('subject_id', 'varchar(300)', notNull)
    .addColumn('client_request_id', 'varchar(200)', notNull)
    .addColumn('intake_ref', 'varchar(1100)', notNull)
    .addColumn('regulation', 'varchar(20)', notNull)
    .addColumn('status', 'varchar(30)', notNull)
    .addColumn('status_reason', 'text')
    .addColumn('created_at', TIME, notNull)
    .addColumn('due_at', TIME, notNull)
    .addColumn('extended_due_at', TIME)
    .addColumn('completed_at', TIME)
    .addColumn('updated_at', TIME, notNull)
    .addUniqueConstraint('privacy_requests_workspace_client_request_id_key', ['workspace_id', 'client_request_id'])
    .execute();
  await createIndex(db, 'privacy_requests_workspace_id_idx', 'privacy_requests', ['workspace_id', 'id']);

  await keyedTable(db, 'idempotency_records', [
    ['principal_id', 'varchar(300)'],
    ['idempotency_key', 'varchar(800)'],
  ])
    .addColumn('fingerprint', DIGEST, notNull)
    .addColumn('state', 'varchar(20)', notNull)
    .addColumn('response_status', 'integer')
    .addColumn('response_location', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', TIME, notNull)
    .addColumn('expires_at', TIME, notNull)
    .execute();

  await keyedTable(db, 'policy_layers', [
    ['workspace_id', WORKSPACE_ID],
    ['repository', 'varchar(500)'],
  ])
    .addColumn('settings', 'text', notNull)
    .addColumn('version', 'integer', notNull)
    .$call(lastWrite('varchar(300)'))
    .execute();

  await keyedTable(db, 'policy_layer_versions', [
    ['workspace_id', WORKSPACE_ID],
    ['repository', 'varchar(500)'],
    ['version', 'integer'],
  ])
    .addColumn('settings', 'text')
    .addColumn('changed_at', TIME, notNull)
    .addColumn('changed_by', 'varchar(300)', notNull)
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', ID, primaryKey)
    .addColumn('name', 'varchar(200)', notNull)
    .addColumn('token_hash', DIGEST, (c) => c.notNull().unique())
    .addColumn('scopes', 'text', notNull)
    .addColumn('workspaces', 'text', notNull)
    .addColumn('created_at', TIME, notNull)
    .addColumn('revoked_at', TIME)
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', ID, primaryKey)
    .addColumn('occurred_at', TIME, notNull)
    .addColumn('actor', 'varchar(300)', notNull)
    .addColumn('action', 'varchar(100)', notNull)
    .addColumn('target_type', 'varchar(50)', notNull)
    .addColumn('target_id', 'varchar(800)', notNull)
    .addColumn('workspace_id', WORKSPACE_ID)
    .addColumn('details', 'text', notNull)
    .execute();

  await db.schema
    .createTable('service_keys')
    .addColumn('name', 'varchar(100)', primaryKey)
    .addColumn('value', 'text', notNull)
    .addColumn('created_at', TIME, notNull)
    .execute();
}

/** Drops everything {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, [
    'service_keys',
    'audit_events',
    'api_tokens',
    'policy_layer_versions',
    'policy_layers',
    'idempotency_records',
    'privacy_requests',
  ]);
}
