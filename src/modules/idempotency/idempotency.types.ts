import type { UnitOfWork } from '../../db/unit-of-work.js';

/**
 * What the record of a key keeps for replay: a status, a `Location` (or null) and a body, as
 * text. The caller decides what they mean through a `RecordCodec` (idempotency.service.ts).
 */
export interface StoredResponse {
  status: number;
  location: string | null;
  body: string;
}

/** A key as seen by one request: its principal, the key itself and the request's fingerprint. */
export interface KeyUse {
  principalId: string;
  key: string;
  fingerprint: string;
}

/** Why an Idempotency-Key cannot be honoured now: another body under it, or its first use still running. */
export type ConflictReason = 'reused' | 'in_flight';

/**
 * What a key's claim found at its unit's commit: the key is this unit's to store (`claimed`,
 * replacing an expired or abandoned record created at `staleSince`), or the stored response to
 * replay, or a conflict.
 */
export type KeyClaim =
  | { kind: 'claimed'; staleSince: string | null }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict'; reason: ConflictReason };

/** A key claimed at its unit's commit (`IdempotencyService.claim`, key-claims.ts). */
export interface ClaimAtCommit {
  readonly use: KeyUse;
  /** The unit to add the key's effects through: they are written only if the key is `claimed`. */
  readonly unit: UnitOfWork;
  /**
   * What the claim found, once the unit's deferred writes were flushed (after its commit).
   * @throws Error when read before the flush.
   */
  outcome(): KeyClaim;
}
