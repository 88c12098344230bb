import { createHash } from 'node:crypto';

/** How long a stored response is replayed (PRODUCT.md §2.3): 24 hours, in ms. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** An `in_flight` claim older than this (ms) belongs to a process that died: it may be taken over. */
export const IN_FLIGHT_LEASE_MS = 60 * 1000;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/**
 * The request fingerprint (IETF draft-ietf-httpapi-idempotency-key-header §2.4): SHA-256 hex of
 * the validated body as canonical JSON (sorted keys), so whitespace and key order do not count
 * as a different body, but any value does.
 */
export function fingerprint(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}

/** What to do with an existing record for the same (principal, key). */
export type ExistingRecordDecision = 'take_over' | 'reused' | 'in_flight' | 'replay';

/**
 * Decides how a new request meets an existing record: an expired or abandoned one is taken over;
 * a different fingerprint is a reuse (422); an unfinished one is in flight (409); else replay.
 */
export function decideOnExisting(
  record: { fingerprint: string; state: string; created_at: string; expires_at: string },
  requestFingerprint: string,
  now: Date,
): ExistingRecordDecision {
  const nowMs = now.getTime();
  if (new Date(record.expires_at).getTime() <= nowMs) return 'take_over';
  if (record.state === 'in_flight' && new Date(record.created_at).getTime() + IN_FLIGHT_LEASE_MS <= nowMs) return 'take_over';
  if (record.fingerprint !== requestFingerprint) return 'reused';
  return record.state === 'in_flight' ? 'in_flight' : 'replay';
}
