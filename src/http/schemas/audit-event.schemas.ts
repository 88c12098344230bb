import { Type } from '@sinclair/typebox';
import { PageLimit, StringEnum } from './common.schemas.js';

/** `GET /api/v1/audit-events` query (PRODUCT.md §2.7). Field order is the order errors are reported in. */
export const AuditEventListQuery = Type.Object({
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z][a-z_]*$' })),
  target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 800 })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z][a-z_.]*$' })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: PageLimit,
});

/** Who acted: `name` is the token's name, the OIDC operator's display claim, the service's or the integration's id. */
export const AuditActor = Type.Object({
  type: StringEnum(['token', 'oidc', 'system', 'webhook', 'subject', 'agent'] as const),
  id: Type.String(),
  name: Type.String(),
});

/** One audit entry. `details` holds no personal data (keyed pseudonyms only). */
export const AuditEventResource = Type.Object({
  seq: Type.Integer({ description: 'Position in the hash chain, from 1' }),
  occurred_at: Type.String({ format: 'date-time' }),
  actor: AuditActor,
  action: Type.String(),
  target_type: Type.String(),
  target_id: Type.String(),
  workspace_id: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'The operator’s reason (reject, cancel, extend), or null' }),
  details: Type.Record(Type.String(), Type.Unknown()),
  hash: Type.String({ description: 'SHA-256 of the previous entry’s hash and this entry (hex)' }),
});

/** A page of audit entries, oldest first. */
export const AuditEventPage = Type.Object({
  items: Type.Array(AuditEventResource),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

/** `GET /api/v1/audit-events/verify`: the hash chain recomputed. */
export const AuditVerification = Type.Object({
  intact: Type.Boolean(),
  entries: Type.Integer({ description: 'Entries in the chain when it was read' }),
  first_broken_seq: Type.Union([Type.Integer(), Type.Null()]),
});
