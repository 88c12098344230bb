// Names for the API shapes the console uses, taken from the generated OpenAPI types (openapi.d.ts):
// when a route's schema changes, `npm run console:types` changes these and the typecheck follows.
import type { paths } from './openapi.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The JSON body a path answers with `status` to `method`. */
export type Json<P extends keyof paths, M extends Method, S extends number> = paths[P][M] extends {
  responses: infer R;
}
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never
  : never;

/** The JSON body a path takes for `method`. */
export type Body<P extends keyof paths, M extends Method> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The query parameters of a path's `method`. */
export type Query<P extends keyof paths, M extends Method> = paths[P][M] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

export type PrivacyRequest = Json<'/api/v1/privacy/requests/{id}', 'get', 200>;
/** One DRP record with the agent's relationships hints and attested flags (PRODUCT §2.19). */
export type DrpRequestDetail = Json<'/api/v1/drp/requests/{request_id}', 'get', 200>;
export type Redaction = Json<'/api/v1/privacy/requests/{id}/package/redactions', 'post', 201>;
export type PrivacyRequestPage = Json<'/api/v1/privacy/requests', 'get', 200>;
export type ListQuery = Query<'/api/v1/privacy/requests', 'get'>;
export type NewRequest = Body<'/api/v1/privacy/requests', 'post'>;
export type RequestStatus = PrivacyRequest['status'];
export type RequestType = PrivacyRequest['request_type'];
export type EffectivePolicy = Json<'/api/v1/policies/effective', 'get', 200>;
export type PolicyLayer = Json<'/api/v1/policies/workspaces/{workspace_id}', 'get', 200>;
export type PolicySettings = Body<'/api/v1/policies/workspaces/{workspace_id}', 'put'>;
export type IntegrationList = Json<'/api/v1/integrations', 'get', 200>;
export type EndpointList = Json<'/api/v1/webhook-endpoints', 'get', 200>;
export type Endpoint = EndpointList['items'][number];
export type EndpointWithSecret = Json<'/api/v1/webhook-endpoints/{id}/rotate-secret', 'post', 201>;
export type MessageList = Json<'/api/v1/webhook-endpoints/{id}/messages', 'get', 200>;

/** One item of a 422 answer (FastAPI/Pydantic shape, PRODUCT.md §2.1). */
export interface ValidationItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export const REQUEST_STATUSES: readonly RequestStatus[] = [
  'pending_approval',
  'queued',
  'processing',
  'action_required',
  'completed',
  'failed',
  'rejected',
  'canceled',
];
export const REQUEST_TYPES: readonly RequestType[] = ['access', 'export', 'correction', 'deletion'];
/**
 * The scope keys the console offers (PRODUCT.md §1): the six the service's own store holds. The API
 * takes every `user.*` key of the Fides taxonomy (GET /api/v1/data-categories, PRODUCT §2.14).
 */
export const SCOPE_KEYS = ['user', 'user.account', 'user.contact', 'user.contact.email', 'user.name', 'user.content'] as const;
export type AuditEventPage = Json<'/api/v1/audit-events', 'get', 200>;
export type AuditEvent = AuditEventPage['items'][number];
export type AuditVerification = Json<'/api/v1/audit-events/verify', 'get', 200>;
export type DataTask = Json<'/api/v1/data-tasks/{id}', 'get', 200>;
export type DataTaskResult = Body<'/api/v1/data-tasks/{id}/result', 'post'>;
export type DataSystemList = Json<'/api/v1/data-systems', 'get', 200>;
export type DataSystem = DataSystemList['items'][number];
export type DataSystemTest = Json<'/api/v1/data-systems/{id}/test', 'post', 200>;
export type DataSystemPreview = Json<'/api/v1/data-systems/{id}/preview', 'post', 200>;
export type DataSystemPreviewBody = Body<'/api/v1/data-systems/{id}/preview', 'post'>;
export type QueueStats = Json<'/api/v1/privacy/requests/stats', 'get', 200>;
export type NoteList = Json<'/api/v1/privacy/requests/{id}/notes', 'get', 200>;
export type Note = NoteList['items'][number];
export type BulkBody = Body<'/api/v1/privacy/requests/bulk', 'post'>;
export type BulkResults = Json<'/api/v1/privacy/requests/bulk', 'post', 200>;
export type RequestReport = Json<'/api/v1/reports/requests', 'get', 200>;
export type WhoAmI = Json<'/api/v1/whoami', 'get', 200>;
export type AuditQuery = Query<'/api/v1/audit-events', 'get'>;
export type DataCategoryList = Json<'/api/v1/data-categories', 'get', 200>;
export type ControllerProfile = Json<'/api/v1/workspaces/{workspace_id}/controller', 'get', 200>;
export type ControllerProfileBody = Body<'/api/v1/workspaces/{workspace_id}/controller', 'put'>;
export type PrivacyCenterSettings = Json<'/api/v1/workspaces/{workspace_id}/privacy-center', 'get', 200>;
export type PrivacyCenterBody = Body<'/api/v1/workspaces/{workspace_id}/privacy-center', 'put'>;
export type NoDataPreview = Json<'/api/v1/privacy/requests/{id}/confirm-no-data', 'get', 200>;
export type IdentityBody = Body<'/api/v1/privacy/requests/{id}/identity', 'post'>;
export type NewDataSystem = Body<'/api/v1/data-systems', 'post'>;
export type DataSystemChange = Body<'/api/v1/data-systems/{id}', 'patch'>;
export type DataTaskPage = Json<'/api/v1/data-tasks', 'get', 200>;
/** A data system's kind (PRODUCT §2.14). */
export type DataSystemKind = NonNullable<NewDataSystem['kind']>;

/**
 * What a Test or a Preview may say about a collection besides its state (PRODUCT §2.17): the
 * fields a masking cannot write and the searched columns without an index. Optional: the API
 * adds them; the console shows them when present.
 */
export interface CollectionWarnings {
  cannot_mask?: { field: string; reason: string }[];
  unindexed?: { field: string; estimated_rows?: number | null }[];
}
export type OptOutPage = Json<'/api/v1/privacy/opt-outs', 'get', 200>;
export type OptOut = OptOutPage['items'][number];
export type Preferences = Json<'/api/v1/privacy/preferences', 'get', 200>;
