import { STATUS_CODES } from 'node:http';
import type { ErrorItem } from '../validation/error-item.js';
import { REDACTED } from '../validation/error-item.js';
import { HttpError, RequestValidationError } from './http-error.js';
import { PACKAGE_REVIEW_ERRORS } from './package-review-errors.js';

const BEARER = { 'WWW-Authenticate': 'Bearer' };

/**
 * Every error the service answers on purpose, in one place: status, sentence and headers, for the
 * API routes, the webhook routes and the error handler alike (domain errors are mapped onto these
 * in ./domain-errors.ts). Sources: RFC 9110 (statuses), RFC 6750 §3 (`WWW-Authenticate: Bearer`),
 * IETF draft-ietf-httpapi-idempotency-key-header (409/422 for keys), PRODUCT.md §2.6 (webhooks).
 */
export const errors = {
  ...PACKAGE_REVIEW_ERRORS,
  notAuthenticated: () => new HttpError(401, 'Not authenticated', BEARER),
  invalidCredentials: () => new HttpError(401, 'Invalid authentication credentials', BEARER),
  missingScope: (scope: string) => new HttpError(403, `This token lacks the ${scope} scope`),
  workspaceForbidden: () => new HttpError(403, 'This token is not valid for that workspace'),
  allWorkspacesAdminOnly: () =>
    new HttpError(
      403,
      "The audit chain spans every workspace: verifying it needs an admin token for every workspace (*); list your workspaces' entries with GET /api/v1/audit-events",
    ),
  notFound: (what: string) => new HttpError(404, `${what} not found`),
  routeNotFound: () => new HttpError(404, 'Not Found'),
  malformedUrl: () => new HttpError(400, 'The request URL is malformed (invalid percent-encoding)'),
  pathSegmentTooLong: () => new HttpError(414, 'A path segment of the request URL is too long'),
  idempotencyInFlight: () =>
    new HttpError(409, 'A request with this Idempotency-Key is still being processed; retry later', { 'Retry-After': '1' }),
  clientRequestIdTaken: (location: string) =>
    new HttpError(409, 'A privacy request with this client_request_id already exists in the workspace', { Location: location }),
  optOutClientRequestIdTaken: (location: string) =>
    new HttpError(409, 'An opt-out with this client_request_id already exists in the workspace', { Location: location }),
  bodyTooLarge: () => new HttpError(413, 'Request body is too large'),
  unsupportedMediaType: () => new HttpError(415, 'Unsupported media type: send application/json'),
  tooManyRequests: (retryAfterSeconds: number) =>
    new HttpError(429, `Rate limit exceeded; retry in ${retryAfterSeconds} seconds`, {
      'Retry-After': String(retryAfterSeconds),
    }),
  unavailable: () => new HttpError(503, 'Service temporarily unavailable; retry later', { 'Retry-After': '5' }),
  storageUnavailable: () =>
    new HttpError(503, 'The database cannot store data right now (storage full or read-only); retry later', {
      'Retry-After': '30',
    }),
  internal: () => new HttpError(500, 'Internal Server Error'),
  consoleNotBuilt: () =>
    new HttpError(503, 'The console is not built on this server: run npm run build (npm start builds it), then restart'),
  bodyNotParsable: () => new HttpError(400, 'There was an error parsing the body'),
  contentLengthMismatch: () => new HttpError(400, 'Content-Length does not match the body'),
  emptyJsonBody: () => new HttpError(400, 'Body cannot be empty when content-type is set to application/json'),
  /** A 4xx raised by Fastify or a plugin with its own status: that status and its reason phrase. */
  pluginClientError: (status: number) => new HttpError(status, STATUS_CODES[status] ?? 'Bad Request'),
  resultWrongType: (aRequestType: string, kind: string) => new HttpError(409, `${aRequestType} request has no ${kind}`),
  resultNotReady: (status: string, kind: string) =>
    new HttpError(409, `The request is ${status}; its ${kind} exists once it is completed`),
  packageExpired: (at: string) =>
    new HttpError(
      410,
      `This package expired at ${at}: packages are kept for a limited time after completion and no longer ` +
        'than the data they copied; file a new access or export request for a current copy',
    ),
  controllerProfileNotSet: () =>
    new HttpError(
      404,
      'No controller profile is set for this workspace; an admin sets one with PUT /api/v1/workspaces/{workspace_id}/controller',
    ),
  resultErased: (kind: string) => new HttpError(410, `This ${kind} no longer exists (erased)`),
  /** A field an integration needs for its kind is missing (`shown`: the body, secret redacted). */
  integrationFieldMissing: (field: string, shown: unknown) =>
    new RequestValidationError([{ type: 'missing', loc: ['body', field], msg: 'Field required', input: shown }]),
  /** A field of an integration is refused by the service (`message` says why). */
  integrationFieldInvalid: (field: string, message: string, input: unknown) =>
    new RequestValidationError([{ type: 'value_error', loc: ['body', field], msg: message, input, ctx: { error: {} } }]),
  /** A query parameter that matched its pattern but names no real value (`2026-02-30T…`). */
  /** `received_at` outside the service clock's window (PRODUCT §2.13), as the schema's own check words it. */
  receivedAtOutOfRange: (input: string, problem: string) =>
    new RequestValidationError([
      { type: 'value_error', loc: ['body', 'received_at'], msg: `Value error, ${problem}`, input, ctx: { error: {} } },
    ]),
  invalidQueryValue: (name: string, message: string, input: string) =>
    new RequestValidationError([
      { type: 'value_error', loc: ['query', name], msg: `Value error, ${message}`, input, ctx: { error: {} } },
    ]),
  /** A cursor of a list whose cursors are not bound to their query yet (the webhook message log). */
  unissuedCursor: () => new HttpError(400, 'The cursor is not valid; start again without one'),
  /** A cursor this service did not issue, or issued for another query (its filters are bound into it). */
  invalidCursor: (cursor: string) =>
    new RequestValidationError([
      {
        type: 'value_error',
        loc: ['query', 'cursor'],
        msg: 'Value error, the cursor is not valid for this query; start again without one',
        input: cursor,
        ctx: { error: {} },
      },
    ]),
  invalidTransition: (action: string, status: string) =>
    new HttpError(409, `Cannot ${action === 'corrections' ? 'correct' : action} a request in status ${status}`),
  /** An extension after the binding due date (PRODUCT §2.13, GDPR Art. 12(3), CCPA §7021(b)). */
  deadlinePassed: (dueAt: string) =>
    new HttpError(
      409,
      `The deadline has passed (the request was due at ${dueAt}): an extension must be given, and the person told, before the deadline; the request stays overdue until it ends`,
    ),
  /** `…/identity` or `…/confirm-no-data` on a request that is not `identity_unmatched` (PRODUCT §2.13). */
  notAwaitingIdentityReview: (status: string) =>
    new HttpError(
      409,
      `This request does not wait for an identity review (status ${status}); only a request in action_required with status_reason identity_unmatched does`,
    ),
  /** `…/proceed` on a request that is not `repeat_request` (PRODUCT §2.20). */
  notWaitingAsRepeat: (status: string) =>
    new HttpError(
      409,
      `This request does not wait as a repeated request (status ${status}); only a request in action_required with status_reason repeat_request does`,
    ),
  selfApproval: () =>
    new HttpError(403, 'The principal that filed this request cannot approve it; another principal must approve it'),
  namespaceTaken: (kind: string) =>
    new HttpError(409, `This workspace already has an integration of kind ${kind} for this namespace`),
  /**
   * Corrections refused: one 422 item per refused field (or one for the whole `changes`); the
   * offered values are personal data and are not echoed.
   */
  correctionRefused: (reason: string, problems: readonly { field: string; problem: string }[]) =>
    new RequestValidationError(
      problems.length > 0
        ? problems.map((p) => redactedValueError(['body', 'changes', p.field], `Value error, ${p.problem.replaceAll('_', ' ')}`))
        : [redactedValueError(['body', 'changes'], `Value error, ${reason}`)],
    ),

  // Data systems and tasks (PRODUCT.md §2.9).
  systemKeyTaken: (key: string) =>
    new HttpError(409, `This workspace already has a data system with key ${key} (a deleted system keeps its key)`),
  /** `endpoint_id` names no webhook endpoint of the system's workspace. */
  endpointNotInWorkspace: (input: unknown) =>
    new RequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'endpoint_id'],
        msg: 'Value error, not a webhook endpoint of this workspace',
        input,
        ctx: { error: {} },
      },
    ]),
  /** A result's `data` over a limit (413), naming the limit and its value; nothing stored. */
  taskDataTooLarge: (limit: string, bytes: number, max: number) =>
    new HttpError(
      413,
      `The result's data is ${bytes} bytes of JSON, over ${limit} (${max} bytes); send it in smaller parts or raise the limit`,
    ),
  fidesKeyTaken: (fidesKey: string) =>
    new HttpError(409, `Another data system of this workspace already has a dataset with fides_key ${fidesKey}`),
  dataSystemLimit: (limit: number) =>
    new HttpError(
      409,
      `This workspace already has ${limit} data systems, the most MAX_DATA_SYSTEMS_PER_WORKSPACE allows; delete one or raise the limit`,
    ),
  endpointDisabled: () =>
    new HttpError(
      409,
      'This webhook endpoint is disabled: nothing is sent to it; enable it (PATCH with "disabled": false), then retry or recover',
    ),
  endpointLimit: (limit: number) =>
    new HttpError(
      409,
      `This workspace already has ${limit} webhook endpoints, the most MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE allows; delete one or raise the limit`,
    ),
  /** `GET …/workspaces/{id}/drp` while never set (PRODUCT §2.19). */
  drpNotSet: () =>
    new HttpError(
      404,
      'This workspace does not take part in DRP; an admin turns it on with PUT /api/v1/workspaces/{workspace_id}/drp',
    ),
  drpBusinessIdTaken: (businessId: string) =>
    new HttpError(409, `Another workspace of this service already uses business_id ${businessId}`),
  drpAgentIdTaken: (agentId: string) => new HttpError(409, `This workspace already registered the agent ${agentId}`),
  /** A `verify_key` DRP 1.0 does not take (PRODUCT §2.19): the 422 of type `verify_key_invalid`. */
  verifyKeyInvalid: (message: string, input: string) =>
    new RequestValidationError([{ type: 'verify_key_invalid', loc: ['body', 'verify_key'], msg: message, input }]),
  notADatabaseSystem: (kind: string) =>
    new HttpError(409, `This data system is of kind ${kind}: preview and test are for database systems (postgres, mysql)`),
  /** A connector failure (PRODUCT §2.14): its message names system, collection and reason, never the URL. */
  /** A dataset past a size bound once its YAML aliases are expanded (PRODUCT §2.17): the sentence names the limit. */
  datasetTooLarge: (sentence: string) => new HttpError(413, `${sentence[0]?.toUpperCase() ?? ''}${sentence.slice(1)}`),
  connectorFailed: (message: string) => new HttpError(502, `The database did not answer as expected: ${message}`),
  /** A data system's fields refused by the service: one item per problem, the connection never echoed. */
  dataSystemRefused: (
    problems: readonly { loc: (string | number)[]; msg: string; type: string }[],
    shown: Record<string, unknown>,
  ) =>
    new RequestValidationError(
      problems.map((p): ErrorItem => {
        if (p.type === 'missing') return { type: 'missing', loc: [...p.loc], msg: 'Field required', input: shown };
        const input = p.loc[1] === 'connection' ? REDACTED : valueAt(shown, p.loc.slice(1));
        return { type: 'value_error', loc: [...p.loc], msg: `Value error, ${p.msg}`, input, ctx: { error: {} } };
      }),
    ),
  taskAlreadyFinal: (status: string) =>
    new HttpError(409, `This data task is already ${status}; a task result cannot be changed`),
  /** A task result refused: one item per category outside the task (or data the task does not take). */
  taskResultRefused: (problems: readonly { loc: (string | number)[]; input: unknown; problem: string }[]) =>
    new RequestValidationError(
      problems.map((p) => ({
        type: 'value_error',
        loc: [...p.loc],
        msg: `Value error, ${p.problem}`,
        input: p.input,
        ctx: { error: {} },
      })),
    ),

  // Webhooks (PRODUCT.md §2.6). None names which check failed.
  /** Missing, malformed or wrong signature/token, stale timestamp, or no integration to verify against. */
  webhookUnauthenticated: () => new HttpError(401, 'Webhook signature or token could not be verified'),
  /** Authentic, but the body is not the JSON the source promised. */
  webhookBadPayload: () => new HttpError(400, 'Webhook payload is not valid JSON of the expected shape'),
  /** Authentic JSON, but a field breaks the source's schema or the stored bounds (`problem` names it). */
  webhookSchemaViolation: (source: string, problem: string) =>
    new HttpError(400, `Webhook payload does not match the ${source} schema: ${problem}`),
  /** Authentic, but the delivery id header is longer than the service keeps. */
  webhookDeliveryIdTooLong: (headerName: string, max: number) =>
    new HttpError(400, `Webhook ${headerName} header must be at most ${max} characters`),
  /** Authentic identity event dated later than now plus the signature tolerance. */
  webhookFutureEvent: () =>
    new HttpError(400, 'Identity event occurred_at is more than 5 minutes in the future: check the sender clock'),

  idempotencyKeyReused: (key: string) => new RequestValidationError([idempotencyKeyReusedItem(key)]),

  // The privacy center (PRODUCT §2.15).
  privacyCenterOff: () => new HttpError(404, 'This workspace has no privacy center'),
  /** The center is off, or on without `agent_requests` (PRODUCT §2.19): as a center that is off. */
  agentRequestsOff: () => new HttpError(404, 'This privacy center does not take requests from authorized agents'),
  agentSubmissionNotFound: () =>
    new HttpError(404, 'No such agent request is waiting for verification (it may be older than 24 hours)'),
  /** The workspace offers the center but not this request type (the input is a literal, no personal data). */
  requestTypeNotOffered: (input: string, offered: readonly string[]) =>
    new RequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'request_type'],
        msg: `Value error, this privacy center does not take ${input} requests; it takes: ${offered.join(', ') || 'none'}`,
        input,
        ctx: { error: {} },
      },
    ]),
  submissionNotFound: () => new HttpError(404, 'No such request is waiting for verification (it may be older than 24 hours)'),
  codeWrong: (attemptsLeft: number) =>
    new HttpError(
      403,
      `The code is not right; ${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left` +
        (attemptsLeft === 0 ? ': the code is now void, submit the request again for a new one' : ''),
    ),
  codeExpired: () =>
    new HttpError(410, 'The code expired (codes are valid for 10 minutes); submit the request again for a new one'),
  codeVoid: () =>
    new HttpError(429, 'The code is void after three wrong attempts; submit the request again for a new one', {
      'Retry-After': '3600',
    }),
  captchaMissing: () =>
    new RequestValidationError([{ type: 'missing', loc: ['body', 'captcha_token'], msg: 'Field required', input: null }]),
  captchaFailed: () =>
    new RequestValidationError([
      { type: 'captcha_failed', loc: ['body', 'captcha_token'], msg: 'The CAPTCHA was not solved; try again', input: null },
    ]),
  statusNotFound: () => new HttpError(404, 'No such request, or the link is not valid'),
};

/** The value at `path` inside `value` (objects and lists), or null when the path leaves it (a YAML string's inside). */
function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let at: unknown = value;
  for (const step of path) {
    if (typeof at !== 'object' || at === null) return null;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at === undefined ? null : at;
}

function redactedValueError(loc: (string | number)[], msg: string): ErrorItem {
  return { type: 'value_error', loc, msg, input: REDACTED, ctx: { error: {} } };
}

function idempotencyKeyReusedItem(key: string): ErrorItem {
  return {
    type: 'idempotency_key_reused',
    loc: ['header', 'idempotency-key'],
    msg: 'Idempotency-Key was already used with a different request body',
    input: key,
  };
}
