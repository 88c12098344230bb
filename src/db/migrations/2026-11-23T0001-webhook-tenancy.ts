import type { Kysely } from 'kysely';
import { createIndex } from './columns.js';

/**
 * Webhook tenancy (issue 11): a namespace is no longer global, first come first served. Several
 * workspaces may register the same GitHub owner or GitLab group; a delivery goes to the one whose
 * secret verifies (modules/integrations). One integration per kind and namespace remains the rule
 * *within* a workspace. The lookup index keeps (kind, namespace) searches cheap.
 *
 * `change_events.repository_display`: the repository as the provider spelled it, shown in access
 * packages beside the lower-cased `repository` that policies and filters match (null for events
 * stored before). Frozen: never edit after it lands.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('integrations_kind_namespace_key').execute();
  await createIndex(
    db,
    'integrations_kind_workspace_namespace_key',
    'integrations',
    ['kind', 'workspace_id', 'namespace'],
    (index) => index.unique().where('namespace', 'is not', null),
  );
  await createIndex(db, 'integrations_kind_namespace_idx', 'integrations', ['kind', 'namespace']);
  await db.schema.alterTable('change_events').addColumn('repository_display', 'varchar(500)').execute();
}

/** Drops the display column and restores the global unique index (fails when two workspaces share a namespace). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('change_events').dropColumn('repository_display').execute();
  await db.schema.dropIndex('integrations_kind_namespace_idx').execute();
  await db.schema.dropIndex('integrations_kind_workspace_namespace_key').execute();
  await createIndex(db, 'integrations_kind_namespace_key', 'integrations', ['kind', 'namespace'], (index) =>
    index.unique().where('namespace', 'is not', null),
  );
}
