import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { IntegrationTable } from './integration.table.js';

export type IntegrationRow = Selectable<IntegrationTable>;

/** Inserts an integration; the (kind, namespace) unique index refuses a second owner of a namespace. */
export async function insertIntegration(db: Executor, row: IntegrationRow): Promise<void> {
  await db.insertInto('integrations').values(row).execute();
}

/** One integration, or undefined. */
export async function findIntegration(db: Executor, id: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Integrations, oldest first; all of them, or of the given workspaces. */
export async function listIntegrations(db: Executor, workspaces: readonly string[] | '*'): Promise<IntegrationRow[]> {
  let query = db.selectFrom('integrations').selectAll().orderBy('id');
  if (workspaces !== '*') {
    if (workspaces.length === 0) return [];
    query = query.where('workspace_id', 'in', [...workspaces]);
  }
  return query.execute();
}

/** The integration of `kind` whose namespace is one of `candidates`, longest first (a sub-group wins over its group). */
export async function findByNamespace(db: Executor, kind: string, candidates: string[]): Promise<IntegrationRow | undefined> {
  if (candidates.length === 0) return undefined;
  const rows = await db
    .selectFrom('integrations')
    .selectAll()
    .where('kind', '=', kind)
    .where('namespace', 'in', candidates)
    .execute();
  return rows.sort((a, b) => (b.namespace?.length ?? 0) - (a.namespace?.length ?? 0))[0];
}

/** Every identity integration (normally one or a few). */
export async function listIdentityIntegrations(db: Executor): Promise<IntegrationRow[]> {
  return db.selectFrom('integrations').selectAll().where('kind', '=', 'identity').orderBy('id').limit(2).execute();
}

/** Deletes an integration; returns false when there was none. */
export async function deleteIntegration(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('integrations').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
