import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../schemas/common.schemas.js';
import type { OperationDoc } from './operation-doc.js';

/** The operations of the Data Rights Protocol 1.0 (PRODUCT §2.19), merged into `OPERATIONS`. */
export const DRP_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'GET /api/v1/workspaces/{workspace_id}/drp': {
    operationId: 'getDrpSettings',
    summary: 'Get the DRP settings of a workspace',
    description:
      'Whether the workspace takes Data Rights Protocol 1.0 requests, its `business_id`, the actions it supports and its `directory_entry` (the Business Discovery Document to hand to the DRP operators). 404 while never set. Scope `privacy:read`.',
  },
  'PUT /api/v1/workspaces/{workspace_id}/drp': {
    operationId: 'putDrpSettings',
    summary: 'Turn DRP on or off for a workspace',
    description:
      'The whole setting: `enabled`, `business_id` (unique across the service: 409), `name`, `supported_actions` (default all four; `access:categories` and `access:specific` are a 422), directory fields. Audited (`drp.settings_updated`). Scope `admin`.',
    responses: { 409: ErrorResponse },
  },
  'POST /api/v1/drp/agents': {
    operationId: 'registerDrpAgent',
    summary: 'Register a DRP authorized agent',
    description:
      "The fields of the operators' Agent Discovery Document. `verify_key`: standard Base64 of the 32 raw Ed25519 bytes (anything else, the 64-hex form included, is a 422 `verify_key_invalid`); `agent_id` unique per workspace (409). Audited (`drp.agent_registered`). Scope `admin`.",
  },
  'GET /api/v1/drp/agents': {
    operationId: 'listDrpAgents',
    summary: 'List registered DRP agents',
    description: 'The agents of `workspace_id`, or of every workspace of the token. Scope `admin`.',
  },
  'GET /api/v1/drp/agents/{id}': {
    operationId: 'getDrpAgent',
    summary: 'Get a registered DRP agent',
    description: 'One registration, with its key fingerprint and when it last paired. Scope `admin`.',
  },
  'PATCH /api/v1/drp/agents/{id}': {
    operationId: 'updateDrpAgent',
    summary: 'Change a registered DRP agent',
    description:
      "Absent fields stay. A new `verify_key` or `disabled: true` voids the agent's tokens at once; its requests stay. Audited (`drp.agent_updated`). Scope `admin`.",
  },
  'DELETE /api/v1/drp/agents/{id}': {
    operationId: 'removeDrpAgent',
    summary: 'Remove a registered DRP agent',
    description: "Voids the agent's tokens; its requests stay. Audited (`drp.agent_removed`). Scope `admin`.",
    responses: { 204: Type.Null({ description: 'Removed' }) },
  },
  'POST /drp/v1/agent/{agentId}': {
    operationId: 'drpPairAgent',
    summary: 'DRP Pair-wise Key Setup',
    description:
      'DRP 1.0 §2.05. The body (any `Content-Type`) is standard Base64 of an Ed25519 signature followed by the JSON it signs, `{agent-id, business-id, issued-at, expires-at, "drp.version": "1.0"}`, checked against the registrations of the path\'s agent. 200 `{"agent-id", "token"}`: a new `drp_…` bearer token for the pair (the previous one keeps working 24 h). Every failure is a 403 with an empty body, as DRP requires.',
    responses: {
      403: Type.Null({ description: 'Refused (any reason): empty body' }),
      413: Type.Null({ description: 'Body over 64 KiB: empty body' }),
    },
  },
  'GET /drp/v1/agent/{agentId}': {
    operationId: 'drpAgentInformation',
    summary: 'DRP Agent Information',
    description:
      'DRP 1.0 §2.06: `{}` for the agent the bearer token (`drp_…`) belongs to; 401 with `WWW-Authenticate: Bearer error="invalid_token"` without a valid token, 403 for another agent\'s path or when the business turned DRP off. Errors in DRP\'s body `{code, message, fatal}`.',
  },
};
