import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DrpSettingsTable } from '../../db/tables/drp.table.js';

export type DrpSettingsRow = Selectable<DrpSettingsTable>;

const COLUMNS = [
  'workspace_id',
  'enabled',
  'business_id',
  'name',
  'supported_actions',
  'details',
  'updated_at',
  'updated_by',
] as const;

/** The workspace's DRP settings row (PRODUCT §2.19), or undefined when never set. */
export async function findDrpSettings(db: Executor, workspaceId: string): Promise<DrpSettingsRow | undefined> {
  return db.selectFrom('drp_settings').select(COLUMNS).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/** The settings row holding `businessId` (unique across the service), or undefined. */
export async function findDrpSettingsByBusiness(db: Executor, businessId: string): Promise<DrpSettingsRow | undefined> {
  return db.selectFrom('drp_settings').select(COLUMNS).where('business_id', '=', businessId).executeTakeFirst();
}

/** Inserts or replaces the workspace's row whole. */
export async function upsertDrpSettings(db: Executor, row: DrpSettingsRow): Promise<void> {
  const { workspace_id: _key, ...rest } = row;
  await db
    .insertInto('drp_settings')
    .values(row)
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(rest))
    .execute();
}
