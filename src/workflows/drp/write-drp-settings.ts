import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { type ActorRef, actorFields, recordAudit } from '../../modules/audit/audit.repository.js';
import { DrpBusinessIdTakenError } from '../../modules/drp/drp-admin.errors.js';
import { storedDetails, toDrpSettings } from '../../modules/drp/drp-admin.fns.js';
import { DRP_SETTINGS_DETAILS, type DrpSettings, type DrpSettingsInput } from '../../modules/drp/drp-admin.types.js';
import { type DrpSettingsRow, findDrpSettingsByBusiness, upsertDrpSettings } from '../../modules/drp/drp-settings.repository.js';
import { DRP_SUPPORTABLE_ACTIONS } from '../../modules/drp/drp.types.js';

/** What {@link writeDrpSettings} needs. */
export interface DrpSettingsDeps {
  readonly db: Executor;
  readonly clock: Clock;
  /** `PUBLIC_BASE_URL`, for the directory entry's `api_base`. */
  readonly publicBaseUrl: string;
}

/**
 * Replaces the workspace's DRP settings whole (PRODUCT §2.19, `PUT …/workspaces/{id}/drp`):
 * `supported_actions` deduplicated in DRP's order (absent: all four), audited
 * (`drp.settings_updated`, with the switch, the business id and the actions; no contact).
 * @returns the settings with their directory entry.
 * @throws DrpBusinessIdTakenError when another workspace holds `business_id` (409).
 */
export async function writeDrpSettings(
  deps: DrpSettingsDeps,
  workspaceId: string,
  input: DrpSettingsInput,
  actor: ActorRef,
): Promise<DrpSettings> {
  const at = toTimestamp(deps.clock());
  const wanted = input.supported_actions ?? DRP_SUPPORTABLE_ACTIONS;
  const actions = DRP_SUPPORTABLE_ACTIONS.filter((action) => wanted.includes(action));
  const row: DrpSettingsRow = {
    workspace_id: workspaceId,
    enabled: input.enabled ? 1 : 0,
    business_id: input.business_id,
    name: input.name,
    supported_actions: JSON.stringify(actions),
    details: storedDetails(DRP_SETTINGS_DETAILS, input),
    updated_at: at,
    updated_by: actorFields(actor).actor,
  };
  await runUnitOfWork(deps.db, async (unit) => {
    const holder = await findDrpSettingsByBusiness(unit.tx, input.business_id);
    if (holder && holder.workspace_id !== workspaceId) throw new DrpBusinessIdTakenError(input.business_id);
    await upsertDrpSettings(unit.tx, row);
    recordAudit(unit, {
      ...actorFields(actor),
      action: 'drp.settings_updated',
      targetType: 'drp_settings',
      targetId: workspaceId,
      workspaceId,
      details: { enabled: input.enabled, business_id: input.business_id, supported_actions: actions },
      occurredAt: at,
    });
  });
  return toDrpSettings(row, deps.publicBaseUrl);
}
