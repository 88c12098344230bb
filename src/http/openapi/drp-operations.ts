import { Type } from '@sinclair/typebox';
import { DrpErrorBody } from '../drp/drp.schemas.js';
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
  'POST /drp/v1/data-rights-request': {
    operationId: 'drpExercise',
    summary: 'DRP Data Rights Exercise',
    description:
      'DRP 1.0 §2.01 (the path with a trailing `/` too). Bearer `drp_…` token; the body (any `Content-Type`) is a signed `{agent-id, business-id, issued-at, expires-at, "drp.version": "1.0", exercise, regime?, agent-request-id?, status_callback?, email, email_verified?, power_of_attorney?, …}`. `deletion`/`access` file a privacy request (`subject_provider: email`, `intake_ref: drp:<request_id>`, the request\'s `agent`), `sale:opt-out` an opt-out of kind `sale_sharing` (source `agent`); an action the business does not take is `denied`/`claim_not_covered` and files nothing. 200 with DRP §3.03\'s status object. A refusal stores nothing: 400 (claims), 401 (token), 403 (signature, ids, times), 409 (replayed, reused `agent-request-id`, with the first `request_id`), 413.',
    responses: { 413: DrpErrorBody },
  },
  'GET /drp/v1/data-rights-request/{request_id}': {
    operationId: 'drpStatus',
    summary: 'DRP Data Rights Status',
    description:
      "DRP 1.0 §2.02: the status object of the agent's own request, from the state of what it filed now (`expected_by` the binding due date). 403 for another agent's request, 404 for an unknown one.",
  },
  'DELETE /drp/v1/data-rights-request/{request_id}': {
    operationId: 'drpRevoke',
    summary: 'DRP Data Rights Revoke',
    description:
      'DRP 1.0 §2.04: a signed `{"reason"?}` (envelope claims checked when present). Cancels the open privacy request ("Revoked by the authorized agent: …", audited with the agent as actor) and answers the status object, `revoked`; again: the same 200. 409 for a request already fulfilled, denied or expired.',
  },
  'GET /api/v1/drp/requests': {
    operationId: 'listDrpRequests',
    summary: 'List DRP requests',
    description:
      'The DRP records of `workspace_id` (or every workspace of the token), newest first, at most `limit` (default 100, at most 500): `{request_id, agent_id, exercise, regime, status, reason, received_at, privacy_request_id, opt_out_id}`, including those that never became a request (denied). `status` filters by the DRP status now. Never a claim. Scope `privacy:read`.',
  },
  'GET /api/v1/drp/requests/{request_id}': {
    operationId: 'getDrpRequest',
    summary: 'Get a DRP request',
    description:
      "One DRP record as the list gives it, with its `workspace_id` and what the agent said beside the person's identity: the `relationships` hints (shown, never acted on), `proof_ref` (the `power_of_attorney` claim) and the `email_verified`, `phone_number_verified`, `address_verified` flags it attested. Never an identity claim. 404 for an unknown id or one outside the token's workspaces. Scope `privacy:read`.",
  },
  'GET /api/v1/drp/agents/{id}/callbacks': {
    operationId: 'listDrpCallbacks',
    summary: "List a DRP agent's status callbacks",
    description:
      "Newest first (`limit`, default 100, at most 500), optionally of one `status` (`pending`, `delivered`, `failed`, `superseded`): each with its request, address, attempts so far, the last failure's short reason and the next attempt; never the payload. Scope `admin`.",
  },
};
