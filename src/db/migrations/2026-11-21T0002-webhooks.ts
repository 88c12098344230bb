import type { Kysely } from 'kysely';

/**
 * Webhooks: integrations (webhook sources with their secrets), delivery de-duplication, identity
 * events and the subjects folded from them, linked identities, change events and tombstones.
 * Frozen: never edit after it lands; add a new file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('namespace', 'varchar(500)')
    .addColumn('format', 'varchar(20)')
    .addColumn('subject_provider', 'varchar(100)')
    .addColumn('secret_hash', 'varchar(64)')
    .addColumn('secret_ciphertext', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  // One integration per GitHub owner / GitLab group: routing a delivery must be unambiguous.
  await db.schema
    .createIndex('integrations_kind_namespace_key')
    .on('integrations')
    .columns(['kind', 'namespace'])
    .unique()
    .where('namespace', 'is not', null)
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('integration_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('delivery_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_deliveries_pkey', ['integration_id', 'delivery_id'])
    .execute();

  await db.schema
    .createTable('subjects')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('subject_provider', 'varchar(100)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('email', 'varchar(500)')
    .addColumn('name', 'varchar(500)')
    .addColumn('username', 'varchar(300)')
    .addColumn('last_event_at', 'varchar(30)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('subjects_workspace_provider_subject_key', ['workspace_id', 'subject_provider', 'subject_id'])
    .execute();

  await db.schema
    .createTable('identity_events')
    .addColumn('subject_ref', 'varchar(40)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(30)', (c) => c.notNull())
    .addColumn('occurred_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('received_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('identity_events_pkey', ['subject_ref', 'event_id'])
    .execute();

  await db.schema
    .createTable('linked_identities')
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('provider', 'varchar(100)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('subject_ref', 'varchar(40)', (c) => c.notNull())
    .addColumn('login', 'varchar(300)')
    .addPrimaryKeyConstraint('linked_identities_pkey', ['workspace_id', 'provider', 'account_id'])
    .execute();
  await db.schema.createIndex('linked_identities_subject_ref_idx').on('linked_identities').column('subject_ref').execute();

  await db.schema
    .createTable('change_events')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('integration_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('repository', 'varchar(500)', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('action', 'varchar(30)', (c) => c.notNull())
    .addColumn('head_sha', 'varchar(64)')
    .addColumn('title', 'text')
    .addColumn('author_account_id', 'varchar(300)')
    .addColumn('author_login', 'varchar(300)')
    .addColumn('author_pseudonym', 'varchar(64)')
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('policy_version', 'varchar(60)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('change_events_workspace_repository_idx')
    .on('change_events')
    .columns(['workspace_id', 'repository', 'id'])
    .execute();
  await db.schema
    .createIndex('change_events_author_pseudonym_idx')
    .on('change_events')
    .columns(['workspace_id', 'author_pseudonym'])
    .execute();

  await db.schema
    .createTable('tombstones')
    .addColumn('workspace_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('subject_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('tombstones_pkey', ['workspace_id', 'subject_hash'])
    .execute();
}

/** Drops everything {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'tombstones',
    'change_events',
    'linked_identities',
    'identity_events',
    'subjects',
    'webhook_deliveries',
    'integrations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
