import type { Kysely } from 'kysely';

/**
 * Initial schema: privacy requests, idempotency records, policy layers and their versions,
 * API tokens, audit events, service keys. Frozen: never edit after it lands; add a new file.
 * Portable across SQLite and PostgreSQL: times are RFC 3339 UTC text (sortable), JSON is text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('privacy_requests')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('request_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('subject_provider', 'varchar(100)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('client_request_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('intake_ref', 'varchar(1100)', (c) => c.notNull())
    .addColumn('regulation', 'varchar(20)', (c) => c.notNull())
    .addColumn('status', 'varchar(30)', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('due_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('extended_due_at', 'varchar(30)')
    .addColumn('completed_at', 'varchar(30)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('privacy_requests_workspace_client_request_id_key', ['workspace_id', 'client_request_id'])
    .execute();
  await db.schema
    .createIndex('privacy_requests_workspace_id_idx')
    .on('privacy_requests')
    .columns(['workspace_id', 'id'])
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('principal_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(800)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_location', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pkey', ['principal_id', 'idempotency_key'])
    .execute();

  await db.schema
    .createTable('policy_layers')
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('repository', 'varchar(500)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(300)', (c) => c.notNull())
    .addPrimaryKeyConstraint('policy_layers_pkey', ['workspace_id', 'repository'])
    .execute();

  await db.schema
    .createTable('policy_layer_versions')
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('repository', 'varchar(500)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('settings', 'text')
    .addColumn('changed_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('changed_by', 'varchar(300)', (c) => c.notNull())
    .addPrimaryKeyConstraint('policy_layer_versions_pkey', ['workspace_id', 'repository', 'version'])
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('workspaces', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(30)')
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('occurred_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('actor', 'varchar(300)', (c) => c.notNull())
    .addColumn('action', 'varchar(100)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(800)', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(200)')
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('service_keys')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}

/** Drops everything {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'service_keys',
    'audit_events',
    'api_tokens',
    'policy_layer_versions',
    'policy_layers',
    'idempotency_records',
    'privacy_requests',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
