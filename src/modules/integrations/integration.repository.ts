import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { listInWorkspaces } from '../../db/row-match.js';
import type { IntegrationTable } from '../../db/tables/integration.table.js';

export type IntegrationRow = Selectable<IntegrationTable>;

/** Inserts an integration; the (kind, workspace_id, namespace) unique index refuses a workspace's second one for a namespace. */
export async function insertIntegration(db: Executor, row: IntegrationRow): Promise<void> {
  await db.insertInto('integrations').values(row).execute();
}

/** One integration, or undefined. */
export async function findIntegration(db: Executor, id: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Integrations, oldest first; all of them, or of the given workspaces. */
export async function listIntegrations(db: Executor, workspaces: readonly string[] | '*'): Promise<IntegrationRow[]> {
  return listInWorkspaces(db, 'integrations', workspaces);
}

/**
 * The integrations of `kind` whose namespace is one of `namespaces` (any workspace): the `limit`
 * oldest (by `created_at`, then id), then ordered most specific (longest namespace) first, oldest
 * first among equals. Picking the oldest keeps a later registration from pushing an established
 * integration out of the bounded candidate set.
 */
export async function listByNamespace(
  db: Executor,
  kind: string,
  namespaces: readonly string[],
  limit: number,
): Promise<IntegrationRow[]> {
  if (namespaces.length === 0) return [];
  const rows = await db
    .selectFrom('integrations')
    .selectAll()
    .where('kind', '=', kind)
    .where('namespace', 'in', [...namespaces])
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  // Array.prototype.sort is stable: equal namespaces keep their age order.
  return rows.sort((a, b) => (b.namespace?.length ?? 0) - (a.namespace?.length ?? 0));
}

/** The oldest `limit` identity integrations, oldest first (ids sort by creation time). */
export async function listIdentityIntegrations(db: Executor, limit: number): Promise<IntegrationRow[]> {
  return db.selectFrom('integrations').selectAll().where('kind', '=', 'identity').orderBy('id').limit(limit).execute();
}

/** Deletes an integration; returns false when there was none. */
export async function deleteIntegration(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('integrations').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
