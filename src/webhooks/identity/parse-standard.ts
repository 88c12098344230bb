import {
  type CanonicalIdentityEvent,
  IDENTITY_EVENT_TYPES,
  type IdentityEventType,
  type LinkedAccount,
} from '../../modules/subjects/identity-event.types.js';
import { asObject } from '../shared/webhook-body.js';

/** A parse result: the canonical event, an event type we do not handle, or a malformed payload. */
export type ParsedIdentityEvent =
  { kind: 'event'; event: CanonicalIdentityEvent } | { kind: 'ignored'; reason: string } | { kind: 'invalid' };

/**
 * A bounded non-empty string without NUL characters (PostgreSQL refuses them), or undefined. Every
 * stored identity field passes through here, so each has a bound (the column's size).
 */
export function text(value: unknown, max = 300): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max && !value.includes('\u0000') ? value : undefined;
}

/** An optional profile field: absent stays absent, null clears, a bounded string sets. `false` when malformed. */
export function optionalText(value: unknown, max = 500): string | null | undefined | false {
  if (value === undefined || value === null) return value;
  return text(value, max) ?? false;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** True when the calendar date exists (no Feb 30) and the time is in range. */
function validFields(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 60;
}

/**
 * An RFC 3339 date-time with an explicit offset (RFC 3339 §5.6), or epoch milliseconds, as RFC
 * 3339 UTC with milliseconds; undefined for anything else (a local time without offset would
 * depend on the server's time zone; an impossible date would roll over).
 */
export function toInstant(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? new Date(value).toISOString() : undefined;
  if (typeof value !== 'string') return undefined;
  const match = RFC3339.exec(value);
  if (!match || !validFields(match)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function linkedAccounts(value: unknown): LinkedAccount[] | undefined | false {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 100) return false;
  const accounts: LinkedAccount[] = [];
  for (const item of value) {
    const o = asObject(item);
    const provider = text(o?.provider, 100);
    const accountId = Number.isSafeInteger(o?.account_id) ? String(o?.account_id) : text(o?.account_id);
    const login = optionalText(o?.login, 300);
    if (!provider || !accountId || login === false) return false;
    accounts.push({ provider, account_id: accountId, login: login ?? null });
  }
  return accounts;
}

/** Builds the canonical `data`, or null when a field is malformed. */
export function canonicalData(
  userId: string,
  fields: { email?: unknown; name?: unknown; username?: unknown; linked_accounts?: unknown },
) {
  const email = optionalText(fields.email);
  const name = optionalText(fields.name);
  const username = optionalText(fields.username, 300);
  const linked = linkedAccounts(fields.linked_accounts);
  if (email === false || name === false || username === false || linked === false) return null;
  const data: CanonicalIdentityEvent['data'] = { user_id: userId };
  if (email !== undefined) data.email = email;
  if (name !== undefined) data.name = name;
  if (username !== undefined) data.username = username;
  if (linked !== undefined) data.linked_accounts = linked;
  return data;
}

/**
 * The canonical body (`format: standard`, PRODUCT.md §2.6):
 * `{"id","type","occurred_at","data":{"user_id","email"?,"name"?,"username"?,"linked_accounts"?}}`.
 */
export function parseStandardEvent(payload: unknown): ParsedIdentityEvent {
  const root = asObject(payload);
  const id = text(root?.id);
  const type = root?.type;
  const occurredAt = toInstant(root?.occurred_at);
  const data = asObject(root?.data);
  const userId = text(data?.user_id);
  if (typeof type === 'string' && !(IDENTITY_EVENT_TYPES as readonly string[]).includes(type)) {
    return { kind: 'ignored', reason: `${type.slice(0, 100)} events are not handled` };
  }
  if (!id || typeof type !== 'string' || !occurredAt || !data || !userId) return { kind: 'invalid' };
  const canonical = canonicalData(userId, data);
  if (!canonical) return { kind: 'invalid' };
  return { kind: 'event', event: { id, type: type as IdentityEventType, occurred_at: occurredAt, data: canonical } };
}
