import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { accountPseudonym } from '../../lib/keyed-hash.js';

/** How long a mailed code is valid, ms (PRODUCT §2.15: 10 minutes). */
export const CODE_TTL_MS = 10 * 60 * 1000;

/** Wrong codes a submission takes before its code is void (PRODUCT §2.15). */
export const CODE_ATTEMPTS = 3;

/** How long an unverified (or verified) submission is kept, ms (PRODUCT §2.15: 24 h). */
export const SUBMISSION_TTL_MS = 24 * 60 * 60 * 1000;

/** An address as the center compares it: trimmed, lower case (PRODUCT §2.13: matched without regard to case). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The data subject's keyed pseudonym for an address (HMAC-SHA-256 under the pseudonym key, as for
 * every account: lib/keyed-hash.ts): what the audit names them by, never the address itself.
 */
export function subjectPseudonym(pseudonymKey: string, email: string): string {
  return accountPseudonym(pseudonymKey, 'email', normalizeEmail(email));
}

/**
 * An authorized agent's keyed pseudonym for its address (PRODUCT §2.19, the center's agent path):
 * HMAC-SHA-256 under the pseudonym key as every account's, in a namespace of its own, so an
 * agent's id says nothing of the person it files for. What the audit and the request's `agent.id`
 * name it by, never the address itself.
 */
export function agentPseudonym(pseudonymKey: string, email: string): string {
  return accountPseudonym(pseudonymKey, 'agent_email', normalizeEmail(email));
}

/** A new 6-digit code, uniformly drawn (leading zeros kept). */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** A new status-page capability token: 32 random bytes, base64url (43 characters). */
export function newStatusToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The stored form of a code or token: HMAC-SHA-256 under the service's pseudonym key, hex,
 * bound to what it opens (`purpose`, e.g. the submission id), so a leaked table gives neither a
 * code nor a token, and a hash of one submission's code says nothing about another's.
 */
export function secretHash(key: string, purpose: string, secret: string): string {
  return createHmac('sha256', key).update(`privacy-center:${purpose}:${secret}`).digest('hex');
}

/**
 * The stored form of a status token: SHA-256, hex. The token holds 256 random bits, so an unkeyed
 * hash is as safe as a keyed one (as for API tokens) and the outbox can issue tokens at commit.
 */
export function statusTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The state of a submission's code when a code is tried. */
export interface CodeState {
  codeHash: string;
  expiresAt: string;
  attemptsLeft: number;
  verified: boolean;
}

/**
 * What trying a code comes to (PRODUCT §2.15), decided without writing: `verified` (right code,
 * or the submission was verified before: the same answer again), `void` (no attempts left: 429),
 * `expired` (410), `wrong` with the attempts left after this one (403).
 */
export type CodeDecision =
  { kind: 'verified' } | { kind: 'void' } | { kind: 'expired' } | { kind: 'wrong'; attemptsLeft: number };

/** Decides a code attempt: `tried` is the hash of the code given, `now` epoch ms. */
export function decideCode(state: CodeState, tried: string, now: number): CodeDecision {
  if (state.verified) return { kind: 'verified' };
  if (state.attemptsLeft <= 0) return { kind: 'void' };
  if (now > Date.parse(state.expiresAt)) return { kind: 'expired' };
  if (sameHash(state.codeHash, tried)) return { kind: 'verified' };
  return { kind: 'wrong', attemptsLeft: state.attemptsLeft - 1 };
}

/** A stored code's columns, as every table holding one names them (a submission, an agent's, a DRP wait). */
export interface StoredCode {
  readonly code_hash: string;
  readonly code_expires_at: string;
  readonly attempts_left: number;
  readonly verified_at: string | null;
}

/**
 * Tries `code` on a stored code ({@link decideCode}): its keyed hash under `key`, bound to
 * `purpose` ({@link secretHash}), against the stored one; `now` epoch ms. The one way each code
 * table decides a try.
 */
export function tryStoredCode(key: string, purpose: string, stored: StoredCode, code: string, now: number): CodeDecision {
  return decideCode(
    {
      codeHash: stored.code_hash,
      expiresAt: stored.code_expires_at,
      attemptsLeft: stored.attempts_left,
      verified: stored.verified_at !== null,
    },
    secretHash(key, purpose, code),
    now,
  );
}
