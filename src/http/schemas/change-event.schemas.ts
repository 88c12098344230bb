import { Type } from '@sinclair/typebox';
import { PageLimit } from './common.schemas.js';

/** `GET /api/v1/change-events` query. */
export const ChangeEventListQuery = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  repository: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: PageLimit,
});

const Decision = Type.Object({
  processing_allowed: Type.Boolean(),
  reasons: Type.Array(Type.String()),
  excluded_paths: Type.Array(Type.String()),
  policy_version: Type.String(),
});

/** A recorded change event. */
export const ChangeEventResource = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  provider: Type.String(),
  repository: Type.String(),
  number: Type.Integer(),
  action: Type.String(),
  head_sha: Type.Union([Type.String(), Type.Null()]),
  title: Type.Union([Type.String(), Type.Null()]),
  author: Type.Union([
    Type.Object({
      account_id: Type.Union([Type.String(), Type.Null()]),
      login: Type.Union([Type.String(), Type.Null()]),
      pseudonym: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  decision: Decision,
  received_at: Type.String({ format: 'date-time' }),
});

export const ChangeEventPage = Type.Object({
  items: Type.Array(ChangeEventResource),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
