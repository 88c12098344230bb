import { Type } from '@sinclair/typebox';

/** DRP §3.06's error body (PRODUCT §2.19): not the API's `{"detail"}`. */
export const DrpErrorBody = Type.Object({
  code: Type.String({ description: 'The HTTP status, as a string.' }),
  message: Type.String(),
  fatal: Type.Optional(Type.Boolean()),
  request_id: Type.Optional(Type.String({ description: 'On a 409 for a message already received: the first one.' })),
});
