import { Type } from '@sinclair/typebox';
import { StringEnum } from './common.schemas.js';

const AUTHOR_IDENTITY = ['full', 'pseudonymous', 'none'] as const;
const REGULATIONS = ['gdpr', 'ccpa'] as const;

/** A calendar day, `YYYY-MM-DD` (then checked to be a real one: `calendar-day`). */
const DAY_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

/** Most `holidays` one layer lists (ten years of a dozen a year, and room). */
export const MAX_HOLIDAYS = 200;

/**
 * A layer's settings: every field optional (absent inherits). PRODUCT.md §2.4. The set fields
 * take no duplicates, `regulations` at least one; unknown fields are refused (`extra_forbidden`):
 * a PUT replaces the whole layer, so a misspelt field would silently drop the setting it meant.
 */
export const PolicyLayerBody = Type.Object(
  {
    processing_allowed: Type.Optional(Type.Boolean()),
    retention_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
    author_identity: Type.Optional(StringEnum(AUTHOR_IDENTITY)),
    excluded_paths: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 100, uniqueItems: true }),
    ),
    regulations: Type.Optional(Type.Array(StringEnum(REGULATIONS), { minItems: 1, maxItems: 2, uniqueItems: true })),
    require_approval: Type.Optional(Type.Boolean()),
    auto_erase_on_deprovision: Type.Optional(Type.Boolean()),
    confirm_no_data: Type.Optional(Type.Boolean()),
    holidays: Type.Optional(
      Type.Array(Type.String({ pattern: DAY_PATTERN, 'x-after': 'calendar-day' }), {
        maxItems: MAX_HOLIDAYS,
        uniqueItems: true,
        description:
          'Days that are not business days (`YYYY-MM-DD`, UTC) besides Saturdays and Sundays: an opt-out’s 15 business days skip them (PRODUCT §2.18). Merged as a union.',
      }),
    ),
    repeat_window_days: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 365,
        description:
          'Days (0–365): a request of the same type for the same matched subject while another is open, or was completed within this many days, waits in `action_required` with `status_reason: repeat_request` (PRODUCT §2.20). 0 (the default) turns the check off. Merged as the larger.',
      }),
    ),
    review_packages: Type.Optional(
      Type.Boolean({
        description:
          'A finished access or export request waits in `action_required` with `status_reason: awaiting_review` until an operator releases its package, after withholding values that would affect the rights and freedoms of others (PRODUCT §2.20, GDPR Art. 15(4)). Default false. Merged as OR.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A complete policy. */
export const PolicySchema = Type.Object({
  processing_allowed: Type.Boolean(),
  retention_days: Type.Integer(),
  author_identity: StringEnum(AUTHOR_IDENTITY),
  excluded_paths: Type.Array(Type.String()),
  regulations: Type.Array(StringEnum(REGULATIONS)),
  require_approval: Type.Boolean(),
  auto_erase_on_deprovision: Type.Boolean(),
  confirm_no_data: Type.Boolean(),
  holidays: Type.Array(Type.String()),
  repeat_window_days: Type.Integer(),
  review_packages: Type.Boolean(),
});

const LayerName = StringEnum(['default', 'workspace', 'repository'] as const);

/** Which layer decided each policy field. */
export const PolicySourcesSchema = Type.Record(Type.String(), LayerName);

/** `GET /api/v1/policies/effective` response. */
export const EffectivePolicyResponse = Type.Object({
  workspace_id: Type.String(),
  repository: Type.String(),
  policy: PolicySchema,
  sources: PolicySourcesSchema,
  version: Type.String(),
  evaluated_at: Type.String({ format: 'date-time' }),
});

/** `GET /api/v1/policies/effective` query. */
export const EffectivePolicyQuery = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  repository: Type.String({ minLength: 1, maxLength: 500 }),
});

/** A stored layer. */
export const PolicyLayerResponse = Type.Object({
  workspace_id: Type.String(),
  repository: Type.Union([Type.String(), Type.Null()]),
  settings: PolicyLayerBody,
  version: Type.Integer(),
  updated_at: Type.String({ format: 'date-time' }),
});

export const WorkspaceParams = Type.Object({ workspace_id: Type.String({ minLength: 1, maxLength: 200 }) });
export const RepositoryParams = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  repository: Type.String({ minLength: 1, maxLength: 500 }),
});
