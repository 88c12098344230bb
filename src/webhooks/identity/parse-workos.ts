import type { IdentityEventType } from '../../modules/subjects/identity-event.types.js';
import { asObject } from '../shared/webhook-body.js';
import { canonicalData, type ParsedIdentityEvent, text, toInstant } from './parse-standard.js';

/**
 * The lifecycle type of a WorkOS Directory Sync event. WorkOS has no separate (de)activation
 * events: a user whose `state` is `inactive` is deactivated, and an update that says `active`
 * reactivates (a no-op for a user who already is).
 */
function lifecycleType(event: string, state: unknown): IdentityEventType | undefined {
  if (event === 'dsync.user.deleted') return 'user.deleted';
  if (event === 'dsync.user.created') return state === 'inactive' ? 'user.deactivated' : 'user.created';
  if (event === 'dsync.user.updated') return state === 'inactive' ? 'user.deactivated' : 'user.reactivated';
  return undefined;
}

/**
 * A WorkOS `dsync.user.*` event in canonical form: id from the event, `occurred_at` from its
 * `created_at`, profile from the directory user. Source: WorkOS Docs, "Events: dsync.user.created".
 */
export function parseWorkosEvent(payload: unknown): ParsedIdentityEvent {
  const root = asObject(payload);
  const user = asObject(root?.data);
  const id = text(root?.id);
  const occurredAt = toInstant(root?.created_at);
  const userId = text(user?.id);
  // Unhandled events (groups, connections…) are ignored before their shape is judged.
  if (typeof root?.event === 'string' && !root.event.startsWith('dsync.user.'))
    return { kind: 'ignored', reason: `${root.event.slice(0, 100)} events are not handled` };
  if (!id || typeof root?.event !== 'string' || !occurredAt || !user || !userId) return { kind: 'invalid' };
  const type = lifecycleType(root.event, user.state);
  if (!type) return { kind: 'ignored', reason: `${root.event.slice(0, 100)} events are not handled` };
  if (type === 'user.deleted') return { kind: 'event', event: { id, type, occurred_at: occurredAt, data: { user_id: userId } } };
  const name = [user.first_name, user.last_name].filter((p) => typeof p === 'string' && p !== '').join(' ') || null;
  const username = asObject(user.custom_attributes)?.username ?? null;
  const data = canonicalData(userId, { email: user.email ?? null, name, username });
  return data ? { kind: 'event', event: { id, type, occurred_at: occurredAt, data } } : { kind: 'invalid' };
}
