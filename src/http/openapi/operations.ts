import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../schemas/common.schemas.js';
import { DATA_SYSTEM_OPERATIONS } from './data-system-operations.js';
import { WEBHOOK_ENDPOINT_OPERATIONS } from './webhook-endpoint-operations.js';
import { PRIVACY_CENTER_OPERATIONS } from './privacy-center-operations.js';
import { OPT_OUT_OPERATIONS } from './opt-out-operations.js';
import { REQUEST_REVIEW_OPERATIONS } from './request-review-operations.js';
import { type OperationDoc, requestAction as request } from './operation-doc.js';
import { DRP_OPERATIONS } from './drp-operations.js';
import { PackageAnswer, ReportBody } from './result-bodies.js';

/** A bodiless answer, documented: 204 No Content, 304 Not Modified. */
const empty = (description: string) => Type.Null({ description });

/**
 * Every operation of the API, by `METHOD path` as Fastify registers it. src/http/openapi/document.ts
 * applies it to the routes; a route missing here fails the start (and the OpenAPI test), so the
 * document can never lose an operation's id, summary or description.
 */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'GET /healthz': {
    operationId: 'getHealth',
    summary: 'Liveness',
    description: 'Answers 200 while the process is up. No database access.',
    responses: { 200: Type.Object({ status: Type.Literal('ok') }) },
  },
  'GET /readyz': {
    operationId: 'getReadiness',
    summary: 'Readiness',
    description:
      'Answers 200 when the database is reachable and accepts writes; 503 with Retry-After otherwise. Configured optional parts that do not answer (SMTP, Redis: the privacy center) are named under `degraded`; requests still succeed without them.',
    responses: {
      200: Type.Object({ status: Type.Literal('ready'), degraded: Type.Optional(Type.Array(Type.String())) }),
      503: ErrorResponse,
    },
  },
  'POST /webhook/prhost': {
    operationId: 'receiveGithubWebhook',
    summary: 'Receive a GitHub webhook',
    description:
      'GitHub `pull_request` deliveries, verified by `X-Hub-Signature-256` over the raw body; `opened` and `synchronize` are recorded as change events, `ping` is answered, the rest ignored. Duplicates by `X-GitHub-Delivery`.',
  },
  'POST /webhook/mrhost': {
    operationId: 'receiveGitlabWebhook',
    summary: 'Receive a GitLab webhook',
    description:
      'GitLab `Merge Request Hook` deliveries, verified by `X-Gitlab-Token`; `open` and `update` are recorded as change events, the rest ignored. Duplicates by `Idempotency-Key` or `X-Gitlab-Event-UUID`.',
  },
  'POST /webhook/identity': {
    operationId: 'receiveIdentityWebhook',
    summary: 'Receive an identity-provider webhook',
    description:
      'User lifecycle events signed with Standard Webhooks, Clerk (Svix) or WorkOS, applied idempotently to the data subject and its linked accounts; `?integration=` names the integration.',
  },
  'POST /api/v1/privacy/requests': {
    operationId: 'createPrivacyRequest',
    summary: 'File a privacy request',
    description:
      'Files an access, export, correction or deletion request (202 + Location). `Idempotency-Key` is required: the same key and body replay the stored answer with `Idempotent-Replayed: true`. Scope `privacy:write`.',
  },
  'GET /api/v1/privacy/requests': {
    operationId: 'listPrivacyRequests',
    summary: 'List privacy requests',
    description:
      'Newest first or by binding due date, with cursor pagination and filters (status repeated or `open`, type, overdue, assignee `me`/`none`/a name, subject, due before). With `format=csv` or `Accept: text/csv`: every matching request as streamed CSV (`id,request_type,workspace_id,status,regulation,received_at,due_at,extended_due_at,completed_at,assignee`; no subject identity). Scope `privacy:read`.',
  },
  'GET /api/v1/audit-events': {
    operationId: 'listAuditEvents',
    summary: 'List audit entries',
    description:
      'The audit trail, oldest first, with cursor pagination (the cursor is bound to the filters) and filters `workspace_id`, `target_type`, `target_id`, `action`. `target_type=privacy_request&target_id=pr_…` is the request’s timeline, its data tasks’ entries included. Scope `privacy:read` sees entries of its workspaces about privacy requests, data tasks and policy layers; `admin` sees every entry of its workspaces (entries without a workspace need `*`).',
  },
  'GET /api/v1/audit-events/verify': {
    operationId: 'verifyAuditChain',
    summary: 'Verify the audit hash chain',
    description:
      'Recomputes the hash chain as `privacyctl audit verify` does, read in pages inside one snapshot: `intact`, the number of `entries`, and the first broken entry’s `seq` (null when intact). The chain spans every workspace: scope `admin` for every workspace (`*`); an admin of some workspaces gets 403.',
  },
  'GET /api/v1/privacy/requests/stats': {
    operationId: 'getQueueStats',
    summary: 'Count the queue',
    description:
      "Exact counts over the caller's workspaces (or those named): open, overdue, due within 7 days (open, not overdue), pending approval, action required, open and unassigned. A `workspace_id` the token does not cover is a 403. Scope `privacy:read`.",
  },
  'POST /api/v1/privacy/requests/{id}/assign': {
    operationId: 'assignPrivacyRequest',
    summary: 'Assign a privacy request',
    description:
      'Assigns the request to an operator (their name as the audit trail shows it), or to nobody with `null`. Not a status change; audited with the previous and new assignee and the reason. A final request is a 409. Scope `privacy:write`.',
  },
  'POST /api/v1/privacy/requests/{id}/notes': {
    operationId: 'addPrivacyRequestNote',
    summary: 'Add a working note',
    description:
      "An internal note (1–4 000 characters), shown in the request's timeline. The audit entry holds its SHA-256, not its text; a deletion of the subject later erases the text. Scope `privacy:write`.",
  },
  'GET /api/v1/privacy/requests/{id}/notes': {
    operationId: 'listPrivacyRequestNotes',
    summary: 'List working notes',
    description:
      "The request's notes, oldest first; `text` is null once a deletion of the subject erased it. Scope `privacy:read`.",
  },
  'POST /api/v1/privacy/requests/bulk': {
    operationId: 'bulkPrivacyRequestAction',
    summary: 'Act on many privacy requests',
    description:
      'approve, reject, cancel, extend or assign up to 100 requests, each on its own (one failing id fails only itself) and audited as if done alone; the filer of a request still cannot approve it. Each result is the new status, or the HTTP status the action alone would have had with its `error`. Scope `privacy:write`.',
  },
  'GET /api/v1/reports/requests': {
    operationId: 'getRequestsReport',
    summary: 'Report on privacy requests',
    description:
      "Over the requests received in [`from`, `to`] (days or RFC 3339 times; `from` after `to` is a 422) in the caller's (or the named) workspaces: per request type received, completed, rejected, canceled, open, completed late, median and 90th-percentile days to complete; per calendar year the CCPA §7102(a) figures over requests under CCPA, and over opt-outs of sale/sharing (`opt_out_sale_sharing`) and requests to limit (`limit_sensitive_use`; choice `opt_out`, complied with = completed, none denied). JSON, or CSV with `format=csv` or `Accept: text/csv`. Scope `privacy:read`.",
  },
  'GET /api/v1/whoami': {
    operationId: 'whoAmI',
    summary: 'Who the caller is',
    description:
      'The principal of the token or session: id, name as the audit trail shows it, scopes and workspaces. Any valid token.',
  },
  'GET /api/v1/privacy/requests/{id}': {
    operationId: 'getPrivacyRequest',
    summary: 'Get a privacy request',
    description:
      'The request resource: status, deadlines, links. A request of a workspace the token does not cover is a 404. Scope `privacy:read`.',
  },
  'POST /api/v1/privacy/requests/{id}/approve': {
    operationId: 'approvePrivacyRequest',
    ...request(
      'Approve',
      'Moves a `pending_approval` request to `queued`.',
      ' The principal that filed the request cannot approve it (403).',
    ),
  },
  'POST /api/v1/privacy/requests/{id}/reject': {
    operationId: 'rejectPrivacyRequest',
    ...request('Reject', 'Ends a request that is not final as `rejected`.'),
  },
  'POST /api/v1/privacy/requests/{id}/cancel': {
    operationId: 'cancelPrivacyRequest',
    ...request('Cancel', 'Ends a request that is not final as `canceled`.'),
  },
  'POST /api/v1/privacy/requests/{id}/extend': {
    operationId: 'extendPrivacyRequest',
    ...request(
      'Extend',
      'Extends the deadline once: GDPR by two months, CCPA by 45 days; only before the due date has passed (409 afterwards: an overdue request stays overdue).',
    ),
  },
  'POST /api/v1/privacy/requests/{id}/corrections': {
    operationId: 'correctPrivacyRequest',
    summary: 'Submit corrected values',
    description: 'Gives a correction request in `action_required` its corrected values; the worker applies them. Audited.',
  },
  'GET /api/v1/privacy/requests/{id}/package': {
    operationId: 'getPrivacyRequestPackage',
    summary: 'Get an access or export package',
    description:
      'The package of a completed access (GDPR Art. 15) or export (Art. 20) request (or of one awaiting review, PRODUCT §2.20), with the values its review withheld shown as `[withheld: <reason>]` (`?unredacted=true`, scope `admin`: as found), naming the controller, the further rights and that no automated decision-making applies. JSON by default; `?format=html` (or an `Accept` that prefers `text/html`) gives the readable letter: self-contained, printable HTML. 410 once it expired (PACKAGE_RETENTION_DAYS) or was erased. Scope `privacy:read`.',
    responses: { 200: PackageAnswer },
  },
  'GET /api/v1/privacy/requests/{id}/report': {
    operationId: 'getPrivacyRequestReport',
    summary: 'Get a deletion or correction report',
    description:
      'What a completed deletion erased and kept per category, or which fields a correction changed, naming its request, workspace, subject (as filed) and times; a deletion also says what it did not touch (copies held by the code hosts and the identity provider themselves). Scope `privacy:read`.',
    responses: { 200: ReportBody },
  },
  'GET /api/v1/workspaces/{workspace_id}/controller': {
    operationId: 'getControllerProfile',
    summary: 'Get the controller profile of a workspace',
    description:
      "Who answers for the workspace's data (GDPR Art. 4(7)): name, contact, DPO, representative, supervisory authority, privacy notice. 404 when none is set. Scope `privacy:read`.",
  },
  'PUT /api/v1/workspaces/{workspace_id}/controller': {
    operationId: 'putControllerProfile',
    summary: 'Set the controller profile of a workspace',
    description:
      'The body is the whole profile: absent optional fields are unset, unknown fields are refused; `contact_email` and the URLs are checked by pattern (422). Every access package and letter names the controller from it; access/export requests of the workspace waiting for it (`status_reason: controller_unnamed`) run on once it is saved. Versioned and audited (field names and version only). Scope `admin`.',
  },
  'GET /api/v1/policies/effective': {
    operationId: 'getEffectivePolicy',
    summary: 'Get the effective policy of a repository',
    description:
      'Defaults, workspace and repository layers merged so that the stricter value wins, with the source of each field and an ETag; `If-None-Match` gives 304. Scope `policy:read`.',
    responses: { 304: empty('Not Modified: the policy still has the ETag sent in If-None-Match') },
  },
  'GET /api/v1/policies/workspaces/{workspace_id}': {
    operationId: 'getWorkspacePolicy',
    summary: 'Get a workspace policy layer',
    description: 'The stored workspace layer and its version. Scope `policy:read`.',
  },
  'PUT /api/v1/policies/workspaces/{workspace_id}': {
    operationId: 'putWorkspacePolicy',
    summary: 'Replace a workspace policy layer',
    description: 'The body is the whole layer; unknown fields are refused. Versioned and audited. Scope `policy:write`.',
  },
  'DELETE /api/v1/policies/workspaces/{workspace_id}': {
    operationId: 'deleteWorkspacePolicy',
    summary: 'Delete a workspace policy layer',
    description: 'The defaults apply again where the workspace layer set a value. Versioned and audited. Scope `policy:write`.',
  },
  'GET /api/v1/policies/workspaces/{workspace_id}/repositories/{repository}': {
    operationId: 'getRepositoryPolicy',
    summary: 'Get a repository policy layer',
    description: 'The stored repository layer (repository URL-encoded). Scope `policy:read`.',
  },
  'PUT /api/v1/policies/workspaces/{workspace_id}/repositories/{repository}': {
    operationId: 'putRepositoryPolicy',
    summary: 'Replace a repository policy layer',
    description: 'A repository layer can only tighten the workspace. Versioned and audited. Scope `policy:write`.',
  },
  'DELETE /api/v1/policies/workspaces/{workspace_id}/repositories/{repository}': {
    operationId: 'deleteRepositoryPolicy',
    summary: 'Delete a repository policy layer',
    description: 'Versioned and audited. Scope `policy:write`.',
  },
  'POST /api/v1/integrations': {
    operationId: 'createIntegration',
    summary: 'Register an integration',
    description: 'A GitHub, GitLab or identity webhook source of a workspace, with its secret (never returned). Scope `admin`.',
  },
  'GET /api/v1/integrations': {
    operationId: 'listIntegrations',
    summary: 'List integrations',
    description: 'The integrations of the workspaces the token covers, without secrets. Scope `admin`.',
  },
  'GET /api/v1/integrations/{id}': {
    operationId: 'getIntegration',
    summary: 'Get an integration',
    description: 'Without its secret. Scope `admin`.',
  },
  'DELETE /api/v1/integrations/{id}': {
    operationId: 'deleteIntegration',
    summary: 'Remove an integration',
    description: 'Its deliveries are refused from then on. Audited. Scope `admin`.',
    responses: { 204: empty('Removed') },
  },
  ...DATA_SYSTEM_OPERATIONS,
  ...WEBHOOK_ENDPOINT_OPERATIONS,
  ...PRIVACY_CENTER_OPERATIONS,
  ...OPT_OUT_OPERATIONS,
  ...REQUEST_REVIEW_OPERATIONS,
  ...DRP_OPERATIONS,
};
