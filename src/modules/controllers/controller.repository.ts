import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { ControllerProfileTable } from '../../db/tables/controller.table.js';
import { readProfileFields, toControllerProfile } from './controller.fns.js';
import type { ControllerProfile, ControllerProfileFields } from './controller.types.js';

export type ControllerProfileRow = Selectable<ControllerProfileTable>;

/** The workspace's controller profile row, or undefined when none is set. */
export async function findControllerProfile(db: Executor, workspaceId: string): Promise<ControllerProfileRow | undefined> {
  return db
    .selectFrom('controller_profiles')
    .select(['workspace_id', 'profile', 'version', 'updated_at', 'updated_by'])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/**
 * Writes the profile as version `row.version`: inserts the first version, or replaces the row
 * only while it still holds `row.version - 1` (a concurrent writer that got there first makes
 * this write nothing). @returns whether the row was written.
 */
export async function writeControllerProfile(db: Executor, row: ControllerProfileRow): Promise<boolean> {
  if (row.version === 1) {
    const inserted = await db
      .insertInto('controller_profiles')
      .values(row)
      .onConflict((oc) => oc.column('workspace_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
  }
  const updated = await db
    .updateTable('controller_profiles')
    .set({ profile: row.profile, version: row.version, updated_at: row.updated_at, updated_by: row.updated_by })
    .where('workspace_id', '=', row.workspace_id)
    .where('version', '=', row.version - 1)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The workspace's controller profile fields (PRODUCT §2.10), or null when none is set. */
export async function workspaceController(db: Executor, workspaceId: string): Promise<ControllerProfileFields | null> {
  const row = await findControllerProfile(db, workspaceId);
  return row ? readProfileFields(row.profile) : null;
}

/** The workspace's controller profile (PRODUCT §2.10), or null when none is set. */
export async function readControllerProfile(db: Executor, workspaceId: string): Promise<ControllerProfile | null> {
  const row = await findControllerProfile(db, workspaceId);
  return row ? toControllerProfile(row) : null;
}
