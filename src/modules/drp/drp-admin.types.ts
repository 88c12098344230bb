import type { DrpSupportableAction } from './drp.types.js';

/** `PUT /api/v1/workspaces/{workspace_id}/drp` body (PRODUCT §2.19), validated by its schema. */
export interface DrpSettingsInput {
  readonly enabled: boolean;
  readonly business_id: string;
  readonly name: string;
  /** Absent: all four supportable actions. */
  readonly supported_actions?: readonly DrpSupportableAction[];
  readonly logo?: string;
  readonly web_url?: string;
  readonly privacy_policy_url?: string;
  readonly technical_contact?: string;
  readonly business_contact?: string;
}

/** The fields of the directory entry a business may leave out. */
export const DRP_SETTINGS_DETAILS = ['logo', 'web_url', 'privacy_policy_url', 'technical_contact', 'business_contact'] as const;
export type DrpSettingsDetail = (typeof DRP_SETTINGS_DETAILS)[number];

/**
 * The DRP Business Discovery Document (PRODUCT §2.19 "directory_entry"): what the admin hands to
 * the DRP operators for the network's service directory. Fields the business left out are absent.
 */
export interface DrpDirectoryEntry {
  readonly id: string;
  readonly name: string;
  readonly logo?: string;
  /** `PUBLIC_BASE_URL` + `/drp`. */
  readonly api_base: string;
  readonly supported_actions: DrpSupportableAction[];
  readonly supported_verifications: string[];
  readonly web_url?: string;
  readonly privacy_policy_url?: string;
  readonly technical_contact?: string;
  readonly business_contact?: string;
}

/** The workspace's DRP settings, as GET and PUT answer them. */
export interface DrpSettings {
  readonly workspace_id: string;
  readonly enabled: boolean;
  readonly business_id: string;
  readonly name: string;
  readonly supported_actions: DrpSupportableAction[];
  readonly logo: string | null;
  readonly web_url: string | null;
  readonly privacy_policy_url: string | null;
  readonly technical_contact: string | null;
  readonly business_contact: string | null;
  readonly updated_at: string;
  readonly directory_entry: DrpDirectoryEntry;
}

/** The optional fields of an agent registration (those of the operators' Agent Discovery Document). */
export const DRP_AGENT_DETAILS = ['web_url', 'identity_assurance_url', 'technical_contact', 'business_contact'] as const;
export type DrpAgentDetail = (typeof DRP_AGENT_DETAILS)[number];

/** `POST /api/v1/drp/agents` body (PRODUCT §2.19). */
export interface DrpAgentInput {
  readonly workspace_id: string;
  readonly agent_id: string;
  readonly name: string;
  readonly verify_key: string;
  readonly web_url?: string;
  readonly identity_assurance_url?: string;
  readonly technical_contact?: string;
  readonly business_contact?: string;
  readonly confirm_with_consumer?: boolean;
}

/** `PATCH /api/v1/drp/agents/{id}` body: absent fields stay as they are; a detail set to null is cleared. */
export interface DrpAgentChanges {
  readonly name?: string;
  readonly verify_key?: string;
  readonly confirm_with_consumer?: boolean;
  readonly disabled?: boolean;
  readonly web_url?: string | null;
  readonly identity_assurance_url?: string | null;
  readonly technical_contact?: string | null;
  readonly business_contact?: string | null;
}

/** A registered agent, as the API answers it. */
export interface DrpAgent {
  readonly id: string;
  readonly workspace_id: string;
  readonly agent_id: string;
  readonly name: string;
  readonly verify_key: string;
  readonly key_fingerprint: string;
  readonly web_url: string | null;
  readonly identity_assurance_url: string | null;
  readonly technical_contact: string | null;
  readonly business_contact: string | null;
  readonly confirm_with_consumer: boolean;
  readonly disabled: boolean;
  readonly paired_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}
