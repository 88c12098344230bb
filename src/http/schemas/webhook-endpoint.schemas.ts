import { Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../modules/outbound-events/event-types.js';
import { PageLimit, StringEnum } from './common.schemas.js';

const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: '`https://` (PRODUCT §2.8); checked again at every delivery.',
});
const EventTypes = Type.Array(StringEnum(EVENT_TYPES), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  description: 'Subscribed event types; absent or null: every type.',
});
const Description = Type.String({ maxLength: 500 });

/** `POST /api/v1/webhook-endpoints` body (PRODUCT §2.8). */
export const CreateEndpointBody = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  url: Url,
  event_types: Type.Optional(EventTypes),
  description: Type.Optional(Description),
});

/** `PATCH /api/v1/webhook-endpoints/{id}` body: absent fields stay as they are. */
export const UpdateEndpointBody = Type.Object({
  url: Type.Optional(Url),
  event_types: Type.Optional(Type.Union([EventTypes, Type.Null()])),
  description: Type.Optional(Type.Union([Description, Type.Null()])),
  disabled: Type.Optional(Type.Boolean()),
});

/** A webhook endpoint (never its secret). */
export const EndpointResource = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  event_types: Type.Union([Type.Array(StringEnum(EVENT_TYPES)), Type.Null()]),
  disabled: Type.Boolean(),
  disabled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  failing_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** An endpoint with its signing secret, answered once by a creation or a rotation. */
export const EndpointWithSecret = Type.Composite([
  EndpointResource,
  Type.Object({ secret: Type.String({ description: '`whsec_` + base64 of 32 random bytes; shown only in this answer.' }) }),
]);

export const EndpointList = Type.Object({ items: Type.Array(EndpointResource) });
export const EndpointIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });
export const MessageIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 40 }),
  msg_id: Type.String({ minLength: 1, maxLength: 40 }),
});
export const EndpointListQuery = Type.Object({ workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });

const MESSAGE_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const MessageListQuery = Type.Object({
  status: Type.Optional(StringEnum(MESSAGE_STATUSES)),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  limit: PageLimit,
});

const Attempt = Type.Object({
  attempt: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Number(),
  error: Type.Union([Type.String(), Type.Null()]),
});

/** One outbound message with its attempts (never its payload). */
export const MessageResource = Type.Object({
  id: Type.String(),
  endpoint_id: Type.String(),
  event_type: Type.String(),
  request_id: Type.Union([Type.String(), Type.Null()]),
  status: StringEnum(MESSAGE_STATUSES),
  attempts: Type.Array(Attempt),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

export const MessageList = Type.Object({
  items: Type.Array(MessageResource),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

/** `POST …/{id}/recover` body: re-send every failed message created at or after `since`. */
export const RecoverBody = Type.Object({
  since: Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
    description: 'RFC 3339 date-time.',
  }),
});
export const RecoverResult = Type.Object({ requeued: Type.Integer() });
