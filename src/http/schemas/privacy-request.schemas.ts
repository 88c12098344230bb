import { DRP_DENIAL_REASONS } from '../../modules/drp/drp.types.js';
import { Type } from '@sinclair/typebox';
import { SCOPE_KEYS } from '../../modules/data-categories/data-categories.fns.js';
import { REQUEST_STATUSES, REQUEST_TYPES, type RequestType } from '../../modules/request-model/request-model.js';
import { StringEnum, PageLimit, RFC3339_PATTERN, SUBJECT_IDENTITY_CHECK } from './common.schemas.js';
import { EMAIL_PATTERN } from './controller.schemas.js';

/**
 * A scope key: a string first (`string_type`), then one of the keys (`literal_error`), as FastAPI
 * reports a `list[str]` item checked against the keys afterwards.
 */
const ScopeKey = Type.Unsafe<(typeof SCOPE_KEYS)[number]>({ allOf: [Type.String(), StringEnum(SCOPE_KEYS)] });

/** `POST /api/v1/privacy/requests` body (PRODUCT.md §2.3). Field order is the order errors are reported in. */
export const CreatePrivacyRequestBody = Type.Object(
  {
    // The pattern is the contract (PRODUCT.md §2.3, Pydantic's error for it); the type is the union.
    request_type: Type.Unsafe<RequestType>(Type.String({ pattern: '^(access|export|correction|deletion)$' })),
    scope: Type.Array(ScopeKey, { minItems: 1, maxItems: 20 }),
    subject_id: Type.String({ minLength: 1, maxLength: 300 }),
    subject_provider: Type.String({ minLength: 1, maxLength: 100 }),
    workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
    client_request_id: Type.String({ minLength: 8, maxLength: 200 }),
    intake_ref: Type.String({ minLength: 1, maxLength: 1100 }),
    received_at: Type.Optional(
      Type.String({
        pattern: RFC3339_PATTERN,
        'x-after': 'received-at',
        description:
          'When the controller received the request (RFC 3339; not in the future, at most 365 days ago); deadlines count from it. Default: now.',
      }),
    ),
    notify_email: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 254,
        pattern: EMAIL_PATTERN,
        description:
          'Where the person is told by e-mail that the request was received, extended (with the reason), completed or rejected (PRODUCT §2.15). Never shown in the request resource.',
      }),
    ),
  },
  SUBJECT_IDENTITY_CHECK,
);

/** `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header): required, 8–200 characters. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.String({ minLength: 8, maxLength: 200 }),
});

/** The request resource. */
export const PrivacyRequestResource = Type.Object({
  id: Type.String(),
  status: StringEnum(REQUEST_STATUSES),
  request_type: StringEnum(REQUEST_TYPES),
  scope: Type.Array(Type.String()),
  subject_id: Type.String(),
  subject_provider: Type.String(),
  workspace_id: Type.String(),
  client_request_id: Type.String(),
  intake_ref: Type.String(),
  regulation: Type.String({ description: 'gdpr, ccpa or ccpa+gdpr: the regulations whose deadlines apply' }),
  received_at: Type.String({
    format: 'date-time',
    description: 'When the controller received the request; deadlines count from it',
  }),
  created_at: Type.String({ format: 'date-time' }),
  due_at: Type.String({ format: 'date-time' }),
  extended_due_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  status_reason: Type.Union([Type.String(), Type.Null()]),
  related_request_id: Type.Union([Type.String(), Type.Null()], {
    description:
      'The request this one repeats (PRODUCT §2.20): the most recent request of the same type for the same matched subject that was open, or completed within the policy’s `repeat_window_days`, when this one was filed as `repeat_request`; null otherwise',
  }),
  assignee: Type.Union([Type.String(), Type.Null()], {
    description: 'The operator the request is assigned to, as the audit trail names them (null: nobody)',
  }),
  agent: Type.Union(
    [
      Type.Object({
        id: Type.String({
          description: "The agent's DRP id (`agent-id`); for the privacy center's agent path a keyed pseudonym of its address",
        }),
        name: Type.String(),
        drp_request_id: Type.Union([Type.String(), Type.Null()], {
          description: "The DRP request (`request_id`) it came from; null when filed through the privacy center's agent path",
        }),
        proof_ref: Type.Union([Type.String(), Type.Null()], {
          description: "Where the person's signed permission is (`power_of_attorney`), or null",
        }),
      }),
      Type.Null(),
    ],
    { description: 'The authorized agent that filed it (PRODUCT §2.19); null for every other request' },
  ),
  links: Type.Object({ self: Type.String() }),
});

/** The list's `status` values: every status, and `open` (every non-final one). */
export const STATUS_FILTERS = [...REQUEST_STATUSES, 'open'] as const;

/** True when an `RFC3339_PATTERN` text names a real calendar day (not `2026-02-30`). */
export function isCalendarDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}

/** Workspaces one list request may name (`workspace_id` repeated). */
export const MAX_LISTED_WORKSPACES = 50;

/**
 * `GET /api/v1/privacy/requests` query: the queue (PRODUCT.md §2.3). `workspace_id` may be
 * repeated or left out (every workspace the caller may read).
 */
export const ListPrivacyRequestsQuery = Type.Object({
  workspace_id: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_LISTED_WORKSPACES }),
  ),
  status: Type.Optional(
    Type.Array(StringEnum(STATUS_FILTERS), {
      description: 'Repeatable; `open` stands for every non-final status (PRODUCT §2.16)',
    }),
  ),
  request_type: Type.Optional(StringEnum(REQUEST_TYPES)),
  overdue: Type.Optional(Type.Boolean()),
  subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  subject_provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  due_before: Type.Optional(Type.String({ pattern: RFC3339_PATTERN, description: 'RFC 3339 date-time' })),
  due_within_days: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3650,
      description:
        'Not overdue, binding due date within this many days from now (both ends included): with `status=open` and 7, the queue count `due_within_7_days` (PRODUCT §2.21)',
    }),
  ),
  sort: Type.Optional(StringEnum(['created_at', 'due_at'] as const, { default: 'created_at' })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: PageLimit,
  assignee: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 300,
      description: '`me` (the caller), `none` (unassigned) or an operator name as the audit trail shows it',
    }),
  ),
  format: Type.Optional(
    StringEnum(['json', 'csv'] as const, { description: '`csv`: the same list as CSV (also with `Accept: text/csv`)' }),
  ),
  agent_id: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,100}$',
      description:
        "Requests filed by this authorized agent: a DRP agent's `agent-id`, or the `agent.id` (keyed pseudonym) of one that filed through the privacy center's agent path (PRODUCT §2.19)",
    }),
  ),
});

/** A page of requests. */
export const PrivacyRequestPage = Type.Object({
  items: Type.Array(PrivacyRequestResource),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

/** `{id}` path parameter. */
export const RequestIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });

/** `…/reject`, `…/cancel`, `…/extend` body: why (audited; no personal data, please). */
export const ReasonBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000 }) });

/** `POST …/{id}/package/redactions` body (PRODUCT §2.20). */
export const RedactionBody = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'JSON Pointer (RFC 6901) to the value of the package to withhold, e.g. `/systems/shop/orders/0/notes`',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Why it is withheld: the person reads `[withheld: <reason>]` in its place (GDPR Art. 15(4))',
    }),
  },
  { additionalProperties: false },
);

/** A redaction as the API returns it: never the withheld value. */
export const RedactionResource = Type.Object({
  id: Type.String(),
  request_id: Type.String(),
  path: Type.String(),
  reason: Type.String(),
  created_by: Type.String({ description: 'The operator who withheld it, as the audit trail names them' }),
  created_at: Type.String({ format: 'date-time' }),
});

/** `GET …/{id}/package/redactions`: oldest first. */
export const RedactionList = Type.Object({ items: Type.Array(RedactionResource) });

/** `…/{id}/package/redactions/{redaction_id}` path parameters. */
export const RedactionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 40 }),
  redaction_id: Type.String({ minLength: 1, maxLength: 40 }),
});

/**
 * `POST …/{id}/release` body: an optional reason, audited. The body itself is optional
 * (`x-optional-body`: validation/validate-request.ts takes an absent body as `{}`).
 */
export const ReleaseBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) },
  { additionalProperties: false, 'x-optional-body': true },
);
/**
 * `…/reject` body: why, and for a request filed by a DRP agent the DRP denial reason its status
 * object names (PRODUCT §2.19; default `other`).
 */
export const RejectBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 1000 }),
  drp_reason: Type.Optional(
    StringEnum(DRP_DENIAL_REASONS, {
      description: 'For a request filed through DRP: the `reason` of its `denied` status object (default `other`)',
    }),
  ),
});

/** `…/identity` body (PRODUCT §2.13): the identity the request meant, and why; lengths as on create. */
export const IdentityBody = Type.Object(
  {
    subject_provider: Type.String({ minLength: 1, maxLength: 100 }),
    subject_id: Type.String({ minLength: 1, maxLength: 300 }),
    reason: Type.String({ minLength: 1, maxLength: 1000 }),
  },
  SUBJECT_IDENTITY_CHECK,
);

/** `GET …/{id}/confirm-no-data` (PRODUCT §2.21): what confirming would tell the person. */
export const NoDataPreview = Type.Object({
  statement: Type.String({ description: 'The GDPR Art. 15(1) confirmation the person gets, word for word' }),
});

/** `…/corrections` body: corrected values by field (email, name, username; within the request's scope). */
export const CorrectionsBody = Type.Object({
  changes: Type.Record(Type.String(), Type.Unknown(), { description: 'field → corrected value' }),
});
