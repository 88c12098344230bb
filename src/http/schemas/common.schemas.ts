import { type TSchema, Type } from '@sinclair/typebox';

/** A string that must be one of `values`: Pydantic `Literal[...]` (`literal_error`). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A name people read (an assignee, a controller's name): no control character (C0 with TAB, CR
 * and LF, DEL, C1), so a CSV cell, a mail line or a log line cannot be broken by one; a 422
 * `string_pattern_mismatch` otherwise (issue 33 item 4).
 */
export const NAME_PATTERN = '^[^\\x00-\\x1F\\x7F-\\x9F]*$';

/** `{"detail": "sentence"}`: every non-validation error. */
export const ErrorResponse = Type.Object({ detail: Type.String() });

/** `{"detail": [ErrorItem…]}`: FastAPI's 422. */
export const ValidationErrorResponse = Type.Object({
  detail: Type.Array(
    Type.Object({
      type: Type.String(),
      loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
      msg: Type.String(),
      input: Type.Unknown(),
      ctx: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  ),
});

/** The error responses every authenticated route can give, for the OpenAPI document. */
export function withErrors(responses: Record<number, TSchema>, validation = true): Record<number, TSchema> {
  const all: Record<number, TSchema> = { ...responses, 401: ErrorResponse, 403: ErrorResponse };
  if (validation) all[422] = ValidationErrorResponse;
  return all;
}

/** The bearer token header, for the OpenAPI document (checked by the auth hook, not the validator). */
export const BEARER_SECURITY = [{ bearerAuth: [] }];

/** Items per page when a list request names no `limit`. */
export const DEFAULT_PAGE_LIMIT = 50;

/** `limit` of every paged list: 1–100, default {@link DEFAULT_PAGE_LIMIT} (filled by the validator). */
export const PageLimit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_PAGE_LIMIT }));

/** RFC 3339 date-time with an offset (`Z` or `±hh:mm`), fields in range (the day against its month is checked apart). */
export const RFC3339_PATTERN =
  '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$';

/**
 * The rule across `subject_provider` and `subject_id` (PRODUCT §2.17): a `phone` identity is a
 * phone number in E.164 once spaces, dashes, dots and parentheses are removed, else a 422
 * `value_error` at `["body","subject_id"]` (a Pydantic model validator; http/validation).
 */
export const SUBJECT_IDENTITY_CHECK = {
  'x-model-after': 'subject-identity',
  description:
    'subject_provider "phone": subject_id is a phone number in E.164 (+, country code, number) once spaces, dashes, dots and parentheses are removed; otherwise a 422 value_error at ["body","subject_id"].',
} as const;
