import { asObject } from '../shared/webhook-body.js';
import { canonicalData, type ParsedIdentityEvent, text, toInstant } from './parse-standard.js';

const CLERK_TYPES: Record<string, 'user.created' | 'user.updated' | 'user.deleted'> = {
  'user.created': 'user.created',
  'user.updated': 'user.updated',
  'user.deleted': 'user.deleted',
};

function primaryEmail(user: Record<string, unknown>): string | null {
  const addresses = Array.isArray(user.email_addresses) ? user.email_addresses.map(asObject) : [];
  const primary = addresses.find((a) => a?.id === user.primary_email_address_id) ?? addresses[0];
  return text(primary?.email_address, 500) ?? null;
}

function fullName(user: Record<string, unknown>): string | null {
  const parts = [user.first_name, user.last_name].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.length > 0 ? parts.join(' ') : null;
}

/** Clerk's external accounts (`provider: "oauth_github"`, `provider_user_id`, `username`) as linked accounts. */
function externalAccounts(user: Record<string, unknown>): unknown[] {
  const accounts = Array.isArray(user.external_accounts) ? user.external_accounts.map(asObject) : [];
  return accounts
    .filter((a) => typeof a?.provider === 'string' && a.provider_user_id !== undefined)
    .map((a) => ({
      provider: String(a?.provider).replace(/^oauth_/, ''),
      account_id: String(a?.provider_user_id),
      login: a?.username ?? null,
    }));
}

/**
 * A Clerk user event (delivered through Svix) in canonical form. The event id is the Svix
 * message id (Clerk bodies carry none); `occurred_at` is the body's `timestamp` (epoch ms).
 * Source: Clerk Docs, "Webhooks overview" (user.created/updated/deleted payloads).
 */
export function parseClerkEvent(payload: unknown, messageId: string | undefined): ParsedIdentityEvent {
  const root = asObject(payload);
  const user = asObject(root?.data);
  const id = text(messageId);
  const occurredAt = toInstant(root?.timestamp);
  const userId = text(user?.id);
  // Unhandled events (sessions, organizations…) are ignored before their shape is judged.
  if (typeof root?.type === 'string' && !CLERK_TYPES[root.type])
    return { kind: 'ignored', reason: `${root.type.slice(0, 100)} events are not handled` };
  if (!id || typeof root?.type !== 'string' || !occurredAt || !user || !userId) return { kind: 'invalid' };
  const type = CLERK_TYPES[root.type];
  if (!type) return { kind: 'invalid' };
  if (type === 'user.deleted') return { kind: 'event', event: { id, type, occurred_at: occurredAt, data: { user_id: userId } } };
  const data = canonicalData(userId, {
    email: primaryEmail(user),
    name: fullName(user),
    username: user.username ?? null,
    linked_accounts: externalAccounts(user),
  });
  return data ? { kind: 'event', event: { id, type, occurred_at: occurredAt, data } } : { kind: 'invalid' };
}
