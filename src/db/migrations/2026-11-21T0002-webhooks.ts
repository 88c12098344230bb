import type { Kysely } from 'kysely';
import { createIndex, ID, WORKSPACE_ID, TIME, DIGEST, notNull, primaryKey } from './columns.js';
import { keyedTable, workspaceTable } from './table-shapes.js';
import { dropTables } from './statements.js';

/**
 * Webhooks: integrations (webhook sources with their secrets), delivery de-duplication, identity
 * events and the subjects folded from them, linked identities, change events and tombstones.
 * Frozen: never edit after it lands; add a new file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('id', ID, primaryKey)
    .addColumn('kind', 'varchar(20)', notNull)
    .addColumn('workspace_id', WORKSPACE_ID, notNull)
    .addColumn('namespace', 'varchar(500)')
    .addColumn('format', 'varchar(20)')
    .addColumn('subject_provider', 'varchar(100)')
    .addColumn('secret_hash', DIGEST)
    .addColumn('secret_ciphertext', 'text')
    .addColumn('created_at', TIME, notNull)
    .execute();
  // One integration per GitHub owner / GitLab group: routing a delivery must be unambiguous.
  await createIndex(db, 'integrations_kind_namespace_key', 'integrations', ['kind', 'namespace'], (index) =>
    index.unique().where('namespace', 'is not', null),
  );

  await keyedTable(db, 'webhook_deliveries', [
    ['integration_id', ID],
    ['delivery_id', 'varchar(300)'],
  ])
    .addColumn('received_at', TIME, notNull)
    .addColumn('expires_at', TIME, notNull)
    .addColumn('outcome', 'text', notNull)
    .execute();

  await workspaceTable(db, 'subjects')
    .addColumn('subject_provider', 'varchar(100)', notNull)
    .addColumn('subject_id', 'varchar(300)', notNull)
    .addColumn('state', 'varchar(20)', notNull)
    .addColumn('email', 'varchar(500)')
    .addColumn('name', 'varchar(500)')
    .addColumn('username', 'varchar(300)')
    .addColumn('last_event_at', TIME)
    .addColumn('updated_at', TIME, notNull)
    .addUniqueConstraint('subjects_workspace_provider_subject_key', ['workspace_id', 'subject_provider', 'subject_id'])
    .execute();

  await keyedTable(db, 'identity_events', [
    ['subject_ref', ID],
    ['event_id', 'varchar(300)'],
  ])
    .addColumn('event_type', 'varchar(30)', notNull)
    .addColumn('occurred_at', TIME, notNull)
    .addColumn('data', 'text', notNull)
    .addColumn('received_at', TIME, notNull)
    .execute();

  await keyedTable(db, 'linked_identities', [
    ['workspace_id', WORKSPACE_ID],
    ['provider', 'varchar(100)'],
    ['account_id', 'varchar(300)'],
  ])
    .addColumn('subject_ref', ID, notNull)
    .addColumn('login', 'varchar(300)')
    .execute();
  await createIndex(db, 'linked_identities_subject_ref_idx', 'linked_identities', ['subject_ref']);

  await workspaceTable(db, 'change_events')
    .addColumn('integration_id', ID, notNull)
    .addColumn('provider', 'varchar(20)', notNull)
    .addColumn('repository', 'varchar(500)', notNull)
    .addColumn('number', 'integer', notNull)
    .addColumn('action', 'varchar(30)', notNull)
    .addColumn('head_sha', DIGEST)
    .addColumn('title', 'text')
    .addColumn('author_account_id', 'varchar(300)')
    .addColumn('author_login', 'varchar(300)')
    .addColumn('author_pseudonym', DIGEST)
    .addColumn('decision', 'text', notNull)
    .addColumn('policy_version', 'varchar(60)', notNull)
    .addColumn('received_at', TIME, notNull)
    .execute();
  await createIndex(db, 'change_events_workspace_repository_idx', 'change_events', ['workspace_id', 'repository', 'id']);
  await createIndex(db, 'change_events_author_pseudonym_idx', 'change_events', ['workspace_id', 'author_pseudonym']);

  await keyedTable(db, 'tombstones', [
    ['workspace_id', WORKSPACE_ID],
    ['subject_hash', DIGEST],
  ])
    .addColumn('created_at', TIME, notNull)
    .execute();
}

/** Drops everything {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, [
    'tombstones',
    'change_events',
    'linked_identities',
    'identity_events',
    'subjects',
    'webhook_deliveries',
    'integrations',
  ]);
}
