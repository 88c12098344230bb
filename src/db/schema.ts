import type { AuditEventTable, AuditHeadTable } from '../modules/audit/audit.table.js';
import type { ControllerProfileTable } from '../modules/controllers/controller.table.js';
import type { ChangeEventTable } from '../modules/change-events/change-event.table.js';
import type { DataSystemTable, DataTaskTable } from '../modules/data-systems/data-system.table.js';
import type { IdempotencyTable } from '../modules/idempotency/idempotency.table.js';
import type { IntegrationTable, WebhookDeliveryTable } from '../modules/integrations/integration.table.js';
import type { OutboundMessageTable, WebhookEndpointTable } from '../modules/outbound-events/outbound-event.table.js';
import type { PolicyLayerTable, PolicyLayerVersionTable } from '../modules/policies/policy.table.js';
import type { PrivacyRequestTable, RequestResultTable } from '../modules/privacy-requests/privacy-request.table.js';
import type { ServiceKeyTable } from '../modules/service-keys/service-key.table.js';
import type { IdentityEventTable, LinkedIdentityTable, SubjectTable, TombstoneTable } from '../modules/subjects/subject.table.js';
import type { ApiTokenTable } from '../modules/tokens/token.table.js';

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
}
