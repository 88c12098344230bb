import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { PrivacyCenterSettingsTable } from '../../db/tables/privacy-center.table.js';

export type SettingsRow = Selectable<PrivacyCenterSettingsTable>;

/** The workspace's privacy-center row, or undefined when never set. */
export async function findSettings(db: Executor, workspaceId: string): Promise<SettingsRow | undefined> {
  return db
    .selectFrom('privacy_center_settings')
    .select(['workspace_id', 'enabled', 'request_types', 'title', 'updated_at', 'updated_by', 'agent_requests'])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Inserts or replaces the workspace's row. */
export async function upsertSettings(db: Executor, row: SettingsRow): Promise<void> {
  await db
    .insertInto('privacy_center_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({
        enabled: row.enabled,
        request_types: row.request_types,
        title: row.title,
        updated_at: row.updated_at,
        updated_by: row.updated_by,
        agent_requests: row.agent_requests,
      }),
    )
    .execute();
}
