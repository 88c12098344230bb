import type { DrpAgentRow } from './drp-agent.repository.js';
import type { DrpSettingsRow } from './drp-settings.repository.js';
import {
  DRP_AGENT_DETAILS,
  DRP_SETTINGS_DETAILS,
  type DrpAgent,
  type DrpAgentDetail,
  type DrpDirectoryEntry,
  type DrpSettings,
  type DrpSettingsDetail,
} from './drp-admin.types.js';
import type { DrpSupportableAction } from './drp.types.js';

type Details<K extends string> = Partial<Record<K, string | null>>;

/** The stored JSON of a row's optional fields: each field named, null when absent. */
export function storedDetails<K extends string>(names: readonly K[], from: Details<K>): string {
  return JSON.stringify(Object.fromEntries(names.map((name) => [name, from[name] ?? null])));
}

function readDetails<K extends string>(names: readonly K[], text: string): Record<K, string | null> {
  const parsed = JSON.parse(text) as Details<K>;
  return Object.fromEntries(names.map((name) => [name, parsed[name] ?? null])) as Record<K, string | null>;
}

/**
 * The workspace's DRP settings resource with its directory entry (PRODUCT §2.19: the Business
 * Discovery Document, `api_base` = `publicBaseUrl` + `/drp`, `supported_verifications: ["email"]`).
 * @param publicBaseUrl - `PUBLIC_BASE_URL`, without a trailing slash.
 */
export function toDrpSettings(row: DrpSettingsRow, publicBaseUrl: string): DrpSettings {
  const details = readDetails<DrpSettingsDetail>(DRP_SETTINGS_DETAILS, row.details);
  const supported = JSON.parse(row.supported_actions) as DrpSupportableAction[];
  const present = Object.fromEntries(Object.entries(details).filter(([, value]) => value !== null));
  const entry: DrpDirectoryEntry = {
    id: row.business_id,
    name: row.name,
    ...(present.logo ? { logo: present.logo } : {}),
    api_base: `${publicBaseUrl.replace(/\/+$/, '')}/drp`,
    supported_actions: supported,
    supported_verifications: ['email'],
    ...(({ logo: _logo, ...rest }) => rest)(present),
  };
  return {
    workspace_id: row.workspace_id,
    enabled: row.enabled === 1,
    business_id: row.business_id,
    name: row.name,
    supported_actions: supported,
    ...details,
    updated_at: row.updated_at,
    directory_entry: entry,
  };
}

/** A stored agent registration as the API answers it (PRODUCT §2.19). */
export function toDrpAgent(row: DrpAgentRow): DrpAgent {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    agent_id: row.agent_id,
    name: row.name,
    verify_key: row.verify_key,
    key_fingerprint: row.key_fingerprint,
    ...readDetails<DrpAgentDetail>(DRP_AGENT_DETAILS, row.details),
    confirm_with_consumer: row.confirm_with_consumer === 1,
    disabled: row.disabled === 1,
    paired_at: row.paired_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
