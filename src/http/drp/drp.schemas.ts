import { Type } from '@sinclair/typebox';

/** DRP §3.06's error body (PRODUCT §2.19): not the API's `{"detail"}`. */
export const DrpErrorBody = Type.Object({
  code: Type.String({ description: 'The HTTP status, as a string.' }),
  message: Type.String(),
  fatal: Type.Optional(Type.Boolean()),
  request_id: Type.Optional(Type.String({ description: 'On a 409 for a message already received: the first one.' })),
});

/** DRP §3.03's Exercise Status object (absent fields left out, never null). */
export const DrpStatusObjectSchema = Type.Object({
  request_id: Type.String(),
  agent_request_id: Type.Optional(Type.String()),
  status: Type.String({ description: 'open, in_progress, fulfilled, revoked, denied or expired' }),
  reason: Type.Optional(Type.String()),
  received_at: Type.String({ format: 'date-time' }),
  expected_by: Type.String({ format: 'date-time' }),
  processing_details: Type.Optional(Type.String()),
  user_verification_url: Type.Optional(Type.String()),
  results_url: Type.Optional(Type.String()),
  expires_at: Type.Optional(Type.String({ format: 'date-time' })),
});
