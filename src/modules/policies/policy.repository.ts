import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { findRow } from '../../db/row-match.js';
import type { PolicyLayerTable, PolicyLayerVersionTable } from '../../db/tables/policy.table.js';

export type PolicyLayerRow = Selectable<PolicyLayerTable>;

/** The workspace layer (`repository` = '') and, when given, the repository layer: up to two rows. */
export async function findLayers(db: Executor, workspaceId: string, repository: string): Promise<PolicyLayerRow[]> {
  return db
    .selectFrom('policy_layers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('repository', 'in', ['', repository])
    .execute();
}

/** One layer, or undefined. */
export async function findLayer(db: Executor, workspaceId: string, repository: string): Promise<PolicyLayerRow | undefined> {
  return findRow(db, 'policy_layers', { workspace_id: workspaceId, repository });
}

/** The highest version ever written for a layer, deletions included; 0 when none. */
export async function latestLayerVersion(db: Executor, workspaceId: string, repository: string): Promise<number> {
  const row = await db
    .selectFrom('policy_layer_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('workspace_id', '=', workspaceId)
    .where('repository', '=', repository)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** Records a version (settings null for a deletion). The primary key makes a concurrent duplicate fail. */
export async function insertLayerVersion(db: Executor, row: Insertable<PolicyLayerVersionTable>): Promise<void> {
  await db.insertInto('policy_layer_versions').values(row).execute();
}

/** Writes the current layer (insert or replace). */
export async function upsertLayer(db: Executor, row: PolicyLayerRow): Promise<void> {
  await db
    .insertInto('policy_layers')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'repository']).doUpdateSet({
        settings: row.settings,
        version: row.version,
        updated_at: row.updated_at,
        updated_by: row.updated_by,
      }),
    )
    .execute();
}

/** Removes the current layer; returns false when there was none. */
export async function deleteLayer(db: Executor, workspaceId: string, repository: string): Promise<boolean> {
  const result = await db
    .deleteFrom('policy_layers')
    .where('workspace_id', '=', workspaceId)
    .where('repository', '=', repository)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
