import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import { REQUEST_TYPES, type RequestType } from '../request-model/request-model.js';
import { findSettings, type SettingsRow, upsertSettings } from './settings.repository.js';
import type { PrivacyCenterSettings, PrivacyCenterSettingsInput } from './privacy-center.types.js';

function toSettings(row: SettingsRow): PrivacyCenterSettings {
  return {
    workspace_id: row.workspace_id,
    enabled: row.enabled === 1,
    request_types: JSON.parse(row.request_types) as RequestType[],
    title: row.title,
    agent_requests: row.agent_requests === 1,
    updated_at: row.updated_at,
  };
}

/**
 * The per-workspace switch of the privacy center (PRODUCT §2.15): whether its public form and API
 * answer, which request types they offer, under which title. Every write is audited
 * (`privacy_center.settings_written`, with what it set).
 */
export function createPrivacyCenterSettingsService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /** The workspace's settings, or null when never set (the center is then off). */
    async get(workspaceId: string): Promise<PrivacyCenterSettings | null> {
      const row = await findSettings(db, workspaceId);
      return row ? toSettings(row) : null;
    },

    /**
     * Replaces the workspace's settings (request types deduplicated, in the order of
     * `REQUEST_TYPES`), audited by `actor`. @returns what is stored.
     */
    async put(workspaceId: string, input: PrivacyCenterSettingsInput, actor: ActorRef): Promise<PrivacyCenterSettings> {
      const now = toTimestamp(clock());
      const types = REQUEST_TYPES.filter((type) => input.request_types.includes(type));
      const row: SettingsRow = {
        workspace_id: workspaceId,
        enabled: input.enabled ? 1 : 0,
        request_types: JSON.stringify(types),
        title: input.title ?? null,
        updated_at: now,
        updated_by: actorFields(actor).actor,
        agent_requests: input.agent_requests === true ? 1 : 0,
      };
      await runUnitOfWork(db, async (unit) => {
        await upsertSettings(unit.tx, row);
        recordAudit(unit, {
          ...actorFields(actor),
          action: 'privacy_center.settings_written',
          targetType: 'privacy_center',
          targetId: workspaceId,
          workspaceId,
          details: {
            enabled: input.enabled,
            request_types: types,
            title_set: input.title !== undefined,
            agent_requests: input.agent_requests === true,
          },
          occurredAt: now,
        });
      });
      return toSettings(row);
    },
  };
}

export type PrivacyCenterSettingsService = ReturnType<typeof createPrivacyCenterSettingsService>;
