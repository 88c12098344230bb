import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../schemas/common.schemas.js';
import type { OperationDoc } from './operation-doc.js';

const SCOPE = ' Scope `admin`.';

/** The operations of `/api/v1/webhook-endpoints` (PRODUCT §2.8), merged into `OPERATIONS`. */
export const WEBHOOK_ENDPOINT_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'POST /api/v1/webhook-endpoints': {
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      "A receiver of the workspace's signed outbound events (Standard Webhooks 1.0). The answer holds its `secret` (`whsec_…`), shown only this once. `url` must be `https://` and must not name a private, loopback or link-local address unless `OUTBOUND_ALLOW_PRIVATE_NETWORKS=true`. A workspace holds at most `MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE` endpoints (default 100, enabled or not); one more is a 409 naming the limit. Audited." +
      SCOPE,
    responses: { 409: ErrorResponse },
  },
  'GET /api/v1/webhook-endpoints': {
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: 'The endpoints of the workspaces the token covers, oldest first, without secrets.' + SCOPE,
  },
  'GET /api/v1/webhook-endpoints/{id}': {
    operationId: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    description:
      'Without its secret; `failing_since` tells a run of failed deliveries, `disabled` whether it receives events.' + SCOPE,
  },
  'PATCH /api/v1/webhook-endpoints/{id}': {
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description:
      'Absent fields stay. `disabled: false` enables a disabled endpoint again (messages failed meanwhile are sent again with `recover`). Audited.' +
      SCOPE,
  },
  'DELETE /api/v1/webhook-endpoints/{id}': {
    operationId: 'deleteWebhookEndpoint',
    summary: 'Remove a webhook endpoint',
    description: 'Its queued and logged messages are deleted with it. Audited.' + SCOPE,
    responses: { 204: Type.Null({ description: 'Removed' }), 404: ErrorResponse },
  },
  'POST /api/v1/webhook-endpoints/{id}/rotate-secret': {
    operationId: 'rotateWebhookEndpointSecret',
    summary: "Rotate a webhook endpoint's secret",
    description:
      'A new secret, shown this once; for 24 h both secrets sign every message (two `v1,` signatures), so the receiver can switch without losing a delivery. Audited.' +
      SCOPE,
  },
  'GET /api/v1/webhook-endpoints/{id}/messages': {
    operationId: 'listWebhookEndpointMessages',
    summary: "List an endpoint's messages",
    description: 'Newest first, with every attempt (time, status code, duration, error); never the payload.' + SCOPE,
  },
  'POST /api/v1/webhook-endpoints/{id}/messages/{msg_id}/retry': {
    operationId: 'retryWebhookEndpointMessage',
    summary: 'Send a message again',
    description:
      'Queues the message for an attempt now, whatever its status (same `webhook-id`). A disabled endpoint: 409 (enable it first). Audited.' +
      SCOPE,
    responses: { 409: ErrorResponse },
  },
  'POST /api/v1/webhook-endpoints/{id}/recover': {
    operationId: 'recoverWebhookEndpoint',
    summary: 'Send failed messages again',
    description:
      'Queues every `failed` message of the endpoint created at or after `since`. A disabled endpoint: 409 (enable it first). Audited.' +
      SCOPE,
    responses: { 409: ErrorResponse },
  },
};
