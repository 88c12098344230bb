import type { AuditEventTable, AuditHeadTable } from './tables/audit.table.js';
import type { ControllerProfileTable } from './tables/controller.table.js';
import type { ChangeEventTable } from './tables/change-event.table.js';
import type { DataSystemTable, DataTaskTable } from './tables/data-system.table.js';
import type {
  DrpAgentTable,
  DrpCallbackTable,
  DrpDigestTable,
  DrpPairingTable,
  DrpRequestTable,
  DrpUserVerificationTable,
  DrpSettingsTable,
} from './tables/drp.table.js';
import type { IdempotencyTable } from './tables/idempotency.table.js';
import type { IntegrationTable, WebhookDeliveryTable } from './tables/integration.table.js';
import type { OutboundMessageTable, WebhookEndpointTable } from './tables/outbound-event.table.js';
import type { OptOutTable, PrivacyPreferenceTable } from './tables/opt-out.table.js';
import type { PolicyLayerTable, PolicyLayerVersionTable } from './tables/policy.table.js';
import type { PrivacyRequestTable, RequestResultTable } from './tables/privacy-request.table.js';
import type { RequestNoteTable } from './tables/request-note.table.js';
import type { PackageRedactionTable } from './tables/package-redaction.table.js';
import type {
  PrivacyCenterMailTable,
  PrivacyCenterSettingsTable,
  PrivacyCenterStatusTokenTable,
  PrivacyCenterSubmissionTable,
  PrivacyCenterAgentSubmissionTable,
  RequestNotifyAddressTable,
} from './tables/privacy-center.table.js';
import type { ServiceKeyTable } from './tables/service-key.table.js';
import type { IdentityEventTable, LinkedIdentityTable, SubjectTable, TombstoneTable } from './tables/subject.table.js';
import type { ApiTokenTable } from './tables/token.table.js';

/** Every table the service owns, by name: Kysely's database type. */
export interface DB {
  privacy_requests: PrivacyRequestTable;
  idempotency_records: IdempotencyTable;
  policy_layers: PolicyLayerTable;
  policy_layer_versions: PolicyLayerVersionTable;
  api_tokens: ApiTokenTable;
  audit_events: AuditEventTable;
  service_keys: ServiceKeyTable;
  integrations: IntegrationTable;
  webhook_deliveries: WebhookDeliveryTable;
  subjects: SubjectTable;
  identity_events: IdentityEventTable;
  linked_identities: LinkedIdentityTable;
  change_events: ChangeEventTable;
  tombstones: TombstoneTable;
  request_results: RequestResultTable;
  audit_head: AuditHeadTable;
  webhook_endpoints: WebhookEndpointTable;
  outbound_messages: OutboundMessageTable;
  controller_profiles: ControllerProfileTable;
  data_systems: DataSystemTable;
  data_tasks: DataTaskTable;
  request_notes: RequestNoteTable;
  privacy_center_settings: PrivacyCenterSettingsTable;
  privacy_center_submissions: PrivacyCenterSubmissionTable;
  privacy_center_agent_submissions: PrivacyCenterAgentSubmissionTable;
  privacy_center_status_tokens: PrivacyCenterStatusTokenTable;
  privacy_center_mails: PrivacyCenterMailTable;
  request_notify_addresses: RequestNotifyAddressTable;
  opt_outs: OptOutTable;
  privacy_preferences: PrivacyPreferenceTable;
  package_redactions: PackageRedactionTable;
  drp_settings: DrpSettingsTable;
  drp_agents: DrpAgentTable;
  drp_pairings: DrpPairingTable;
  drp_requests: DrpRequestTable;
  drp_user_verifications: DrpUserVerificationTable;
  drp_digests: DrpDigestTable;
  drp_callbacks: DrpCallbackTable;
}
