import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../schemas/common.schemas.js';
import { DATA_SYSTEM_OPERATIONS } from './data-system-operations.js';
import { WEBHOOK_ENDPOINT_OPERATIONS } from './webhook-endpoint-operations.js';
import type { OperationDoc } from './operation-doc.js';

/** A bodiless answer, documented: 204 No Content, 304 Not Modified. */
const empty = (description: string) => Type.Null({ description });

/** The access (Art. 15) or export (Art. 20) package: JSON, `format` `privacy-access/1` or `privacy-export/1`. */
const PackageBody = Type.Object(
  {
    format: Type.String(),
    request_id: Type.String(),
    workspace_id: Type.String(),
    subject: Type.Object({ provider: Type.String(), id: Type.String() }),
    generated_at: Type.String({ format: 'date-time' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Per data category (`user.account`, `user.contact.email`, `user.name`, `user.content`)',
    }),
    controller_note: Type.String(),
    controller: Type.Union(
      [Type.Object({ name: Type.String(), contact_email: Type.String() }, { additionalProperties: true }), Type.Null()],
      {
        description: 'The controller profile of the workspace when the package was built (null: none set)',
      },
    ),
    rights: Type.Array(Type.Object({ right: Type.String(), article: Type.String(), statement: Type.String() }), {
      description: 'The further rights of the data subject, GDPR Art. 15(1)(e)–(f)',
    }),
    automated_decision_making: Type.Object(
      { applies: Type.Boolean(), statement: Type.String() },
      { description: 'GDPR Art. 15(1)(h): always `applies: false`' },
    ),
  },
  { additionalProperties: true, description: 'The package of a completed access or export request' },
);

/** The package route's 200: the JSON package, or the readable letter (PRODUCT §2.11) as HTML. */
const PackageAnswer = Type.Unsafe({
  description: 'The package as JSON (default), or with `?format=html` or an Accept preferring text/html the readable letter',
  content: {
    'application/json': { schema: PackageBody },
    'text/html': {
      schema: Type.String({
        description:
          'A self-contained, printable HTML letter (inline CSS, no script, nothing loaded; its own Content-Security-Policy)',
      }),
    },
  },
});

/** A deletion's erasure report or a correction's list of changed fields, naming its request. */
const ReportBody = Type.Object(
  {
    format: Type.String(),
    request_id: Type.String(),
    request_type: Type.String(),
    workspace_id: Type.String(),
    subject: Type.Object(
      { provider: Type.String(), id: Type.String() },
      { description: 'The subject as the request named it (the identifier it was filed with)' },
    ),
    received_at: Type.String({ format: 'date-time' }),
    completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    not_touched: Type.Optional(
      Type.Array(Type.String(), { description: 'Deletion: copies outside this service it did not and cannot erase' }),
    ),
  },
  {
    additionalProperties: true,
    description: 'What a deletion erased and kept per category, or which fields a correction changed',
  },
);

const request = (verb: string, what: string, extra = ''): Pick<OperationDoc, 'summary' | 'description'> => ({
  summary: `${verb} a privacy request`,
  description: `${what} Audited with the operator and the reason.${extra}`,
});

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
    description: 'Answers 200 when the database is reachable and accepts writes; 503 with Retry-After otherwise.',
    responses: { 200: Type.Object({ status: Type.Literal('ready') }), 503: ErrorResponse },
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
    description: 'Newest first, with cursor pagination and filters (status, type, overdue). Scope `privacy:read`.',
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
      'Recomputes the hash chain as `privacyctl audit verify` does, read in pages inside one snapshot: `intact`, the number of `entries`, and the first broken entry’s `seq` (null when intact). Scope `admin`.',
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
  'POST /api/v1/privacy/requests/{id}/identity': {
    operationId: 'repointPrivacyRequestIdentity',
    ...request(
      'Re-point the identity of',
      'For a request in `action_required` with `status_reason: identity_unmatched` (PRODUCT §2.13): names the identity it meant; its earlier data tasks are removed and it runs again from the start. 409 for a request that does not wait for this review.',
    ),
  },
  'POST /api/v1/privacy/requests/{id}/confirm-no-data': {
    operationId: 'confirmPrivacyRequestNoData',
    ...request(
      'Confirm no data for',
      'For a request in `action_required` with `status_reason: identity_unmatched` (PRODUCT §2.13): completes it with its answer and the confirmation that no personal data of the person is processed (GDPR Art. 15(1)). 409 for a request that does not wait for this review.',
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
      'The package of a completed access (GDPR Art. 15) or export (Art. 20) request, naming the controller, the further rights and that no automated decision-making applies. JSON by default; `?format=html` (or an `Accept` that prefers `text/html`) gives the readable letter: self-contained, printable HTML. 410 once it expired (PACKAGE_RETENTION_DAYS) or was erased. Scope `privacy:read`.',
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
};
