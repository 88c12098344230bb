import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../../http/schemas/common.schemas.js';

/** Every webhook's 200 body (PRODUCT.md §2.6). */
export const WebhookOutcome = Type.Object({
  status: Type.Union([Type.Literal('accepted'), Type.Literal('duplicate'), Type.Literal('ignored')]),
  event_id: Type.Optional(Type.String()),
  decision: Type.Optional(
    Type.Object({
      processing_allowed: Type.Boolean(),
      reasons: Type.Array(Type.String()),
      excluded_paths: Type.Array(Type.String()),
      policy_version: Type.String(),
    }),
  ),
  reason: Type.Optional(Type.String()),
});

/** Response schemas shared by the three webhook routes. */
export const WEBHOOK_RESPONSES = {
  200: WebhookOutcome,
  400: ErrorResponse,
  401: ErrorResponse,
  413: ErrorResponse,
  415: ErrorResponse,
};

/** `?integration=int_…`: optional explicit routing. */
export const IntegrationQuery = Type.Object({ integration: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })) });
