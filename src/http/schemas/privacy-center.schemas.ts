import { Type } from '@sinclair/typebox';
import { OPT_OUT_CHOICES, OPT_OUT_KINDS, OPT_OUT_STATUSES } from '../../modules/opt-outs/opt-out.types.js';
import { REQUEST_TYPES, type RequestType } from '../../modules/request-model/request-model.js';
import { EMAIL_PATTERN } from './controller.schemas.js';
import { StringEnum } from './common.schemas.js';

/** `PUT /api/v1/workspaces/{workspace_id}/privacy-center` body (PRODUCT §2.15). */
export const PrivacyCenterSettingsBody = Type.Object(
  {
    enabled: Type.Boolean(),
    request_types: Type.Array(StringEnum(REQUEST_TYPES), { maxItems: 4 }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    agent_requests: Type.Optional(
      Type.Boolean({ description: 'Authorized agents outside DRP may file through the center (PRODUCT §2.19); default false' }),
    ),
  },
  { additionalProperties: false },
);

/** The workspace's privacy center, as GET and PUT answer it. */
export const PrivacyCenterSettingsResponse = Type.Object({
  workspace_id: Type.String(),
  enabled: Type.Boolean(),
  request_types: Type.Array(Type.String()),
  title: Type.Union([Type.String(), Type.Null()]),
  agent_requests: Type.Boolean(),
  updated_at: Type.String(),
});

/** `POST /privacy-center/v1/{workspace_id}/requests` body: what a person submits. */
export const SubmissionBody = Type.Object({
  request_type: Type.Unsafe<RequestType>(Type.String({ pattern: '^(access|export|correction|deletion)$' })),
  email: Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN }),
  captcha_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

/** 202 of a submission: the same for every address. */
export const SubmissionResponse = Type.Object({
  id: Type.String(),
  status: Type.Literal('identity_unverified'),
});

/** `POST …/requests/{id}/verify` body: the 6-digit code. */
export const VerifyBody = Type.Object({ code: Type.String({ pattern: '^[0-9]{6}$' }) });

/** 200 of a verification: the request's status (the `pr_` id stays in the mailed link). */
export const VerifyResponse = Type.Object({ status: Type.String() });

export const CenterParams = Type.Object({ workspace_id: Type.String({ minLength: 1, maxLength: 200 }) });
export const SubmissionParams = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  id: Type.String({ minLength: 1, maxLength: 40 }),
});

/**
 * `POST /privacy-center/v1/{workspace_id}/opt-outs` body (PRODUCT §2.18): the kinds to opt out
 * of, no code; or with `choice: "opt_in"` the kinds to opt back in to, which waits for the
 * e-mailed code (`…/opt-outs/{id}/verify`).
 */
export const CenterOptOutBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN }),
  kinds: Type.Array(StringEnum(OPT_OUT_KINDS), { minItems: 1, maxItems: OPT_OUT_KINDS.length, uniqueItems: true }),
  choice: Type.Optional(StringEnum(OPT_OUT_CHOICES)),
  captcha_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

/**
 * 202 of the center's opt-outs: each one recorded (a `gpc` one too, for a submission with
 * `Sec-GPC: 1`); and 200 of an opt-in's verification: each opt-in recorded (`choice` `opt_in`).
 */
export const CenterOptOutResponse = Type.Object({
  opt_outs: Type.Array(
    Type.Object({
      id: Type.String({ description: '`oo_…`' }),
      kind: StringEnum(OPT_OUT_KINDS),
      choice: StringEnum(OPT_OUT_CHOICES),
      source: StringEnum(['form', 'gpc'] as const),
      status: StringEnum(OPT_OUT_STATUSES),
      due_at: Type.String({ format: 'date-time', description: 'when it is to be passed on' }),
    }),
  ),
});

/**
 * `POST /privacy-center/v1/{workspace_id}/agent-requests` body (PRODUCT §2.19, the center's agent
 * path; 11 CCR §7063(a)): an authorized agent outside DRP files for a person.
 */
export const AgentRequestBody = Type.Object({
  request_type: Type.Unsafe<RequestType>(Type.String({ pattern: '^(access|export|correction|deletion)$' })),
  agent_email: Type.String({
    minLength: 3,
    maxLength: 254,
    pattern: EMAIL_PATTERN,
    description: "The agent's address: the code goes there, and later mails without a link or any data",
  }),
  agent_name: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    description: 'The agent as the person is told its name (not only spaces)',
  }),
  subject_email: Type.String({
    minLength: 3,
    maxLength: 254,
    pattern: EMAIL_PATTERN,
    description: "The person's address: they are asked to confirm, and get the request's mails with the status link",
  }),
  proof_ref: Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: '\\S',
    description: "Where the person's signed permission is (e.g. a document id; not only spaces)",
  }),
  captcha_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

/** 200 of the agent's verification: the person is now asked to confirm. */
export const AgentVerifyResponse = Type.Object({ status: Type.Literal('awaiting_confirmation') });
