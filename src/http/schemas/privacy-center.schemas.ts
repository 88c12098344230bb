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
  },
  { additionalProperties: false },
);

/** The workspace's privacy center, as GET and PUT answer it. */
export const PrivacyCenterSettingsResponse = Type.Object({
  workspace_id: Type.String(),
  enabled: Type.Boolean(),
  request_types: Type.Array(Type.String()),
  title: Type.Union([Type.String(), Type.Null()]),
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
