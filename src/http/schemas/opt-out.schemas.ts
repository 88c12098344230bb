import { Type } from '@sinclair/typebox';
import { OPT_OUT_CHOICES, OPT_OUT_KINDS, OPT_OUT_SOURCES, OPT_OUT_STATUSES } from '../../modules/opt-outs/opt-out.types.js';
import { PageLimit, RFC3339_PATTERN, StringEnum } from './common.schemas.js';
import { MAX_LISTED_WORKSPACES } from './privacy-request.schemas.js';

/*
 * Opt-outs and objections (PRODUCT §2.18). The body has its Pydantic twin (`CreateOptOut`) in
 * scripts/pydantic-golden/generate.py.
 */

/**
 * `POST /api/v1/privacy/opt-outs` body. Field order is the order errors are reported in; after
 * every field passed, the model check `opt-out`: the subject's identity (a phone number for
 * `phone`), then an `opt_in` only with `source: "api"` (a 422 `value_error` at `source`).
 */
export const CreateOptOutBody = Type.Object(
  {
    workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
    subject_provider: Type.String({ minLength: 1, maxLength: 100 }),
    subject_id: Type.String({ minLength: 1, maxLength: 300 }),
    kind: StringEnum(OPT_OUT_KINDS),
    choice: StringEnum(OPT_OUT_CHOICES),
    source: StringEnum(OPT_OUT_SOURCES),
    client_request_id: Type.String({ minLength: 8, maxLength: 200 }),
    received_at: Type.Optional(
      Type.String({
        pattern: RFC3339_PATTERN,
        'x-after': 'received-at',
        description:
          'When the controller received it (RFC 3339; not in the future, at most 365 days ago); the deadline counts from it. Default: now.',
      }),
    ),
  },
  {
    'x-model-after': 'opt-out',
    description:
      'subject_provider "phone": subject_id is a phone number in E.164; choice "opt_in" only with source "api" (11 CCR §7028: the person confirms an opt-in; the center and agent paths come later). Otherwise a 422 value_error at the field.',
  },
);

/** The 202 answer: `{id, status, due_at}`. */
export const OptOutAccepted = Type.Object({
  id: Type.String({ description: '`oo_…`' }),
  status: StringEnum(OPT_OUT_STATUSES),
  due_at: Type.String({ format: 'date-time' }),
});

/** The opt-out resource. */
export const OptOutResource = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  subject_provider: Type.String(),
  subject_id: Type.String(),
  kind: StringEnum(OPT_OUT_KINDS),
  choice: StringEnum(OPT_OUT_CHOICES),
  source: StringEnum(OPT_OUT_SOURCES),
  client_request_id: Type.String(),
  status: StringEnum(OPT_OUT_STATUSES),
  received_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
  due_at: Type.String({
    format: 'date-time',
    description:
      'sale_sharing, sensitive_use: the 15th business day after the day of receipt (Mon–Fri UTC, less the policy’s holidays); direct_marketing: one month. The time of day of receipt.',
  }),
  completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  agent: Type.Union(
    [
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        drp_request_id: Type.String(),
        proof_ref: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ],
    { description: 'The authorized agent that filed it (PRODUCT §2.19, source `agent`); null otherwise' },
  ),
});

/** `GET /api/v1/privacy/opt-outs` query. */
export const ListOptOutsQuery = Type.Object({
  workspace_id: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_LISTED_WORKSPACES }),
  ),
  subject_provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  status: Type.Optional(
    Type.Array(StringEnum([...OPT_OUT_STATUSES, 'open'] as const), {
      description: 'Repeatable; `open` stands for `queued` and `processing`',
    }),
  ),
  overdue: Type.Optional(
    Type.Boolean({
      description:
        '`true`: only open opt-outs (queued or processing) past `due_at`, what the queue count `overdue_opt_outs` counts; `false`: all others (PRODUCT §2.18, §2.21)',
    }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: PageLimit,
});

/** A page of opt-outs, newest first. */
export const OptOutPage = Type.Object({
  items: Type.Array(OptOutResource),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

/** `GET /api/v1/privacy/opt-outs/{id}`. */
export const OptOutIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });

/** `GET /api/v1/privacy/preferences` query: one subject. */
export const PreferencesQuery = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  subject_provider: Type.String({ minLength: 1, maxLength: 100 }),
  subject_id: Type.String({ minLength: 1, maxLength: 300 }),
});

const Preference = Type.Object({
  choice: StringEnum([...OPT_OUT_CHOICES, 'not_set'] as const),
  source: Type.Union([StringEnum(OPT_OUT_SOURCES), Type.Null()]),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** A subject's standing choices, one per kind. */
export const Preferences = Type.Object({
  sale_sharing: Preference,
  sensitive_use: Preference,
  direct_marketing: Preference,
});
