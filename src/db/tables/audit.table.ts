/**
 * Row shape of `audit_events`: who did what to which record. Carries no personal data:
 * `details` is a JSON object of non-personal facts (status changes, versions, reasons).
 */
export interface AuditEventTable {
  id: string;
  occurred_at: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  workspace_id: string | null;
  details: string;
  /**
   * The actor's name when the entry was written (a token's name, an OIDC operator's display
   * claim, `worker`…); null on entries written before 2026-11-24. Hashed when set.
   */
  actor_name: string | null;
  /** The privacy request the entry belongs to (its own entries and its data tasks'), or null. */
  request_id: string | null;
  /** Position in the hash chain, from 1. */
  seq: number;
  /** Hash of the previous entry (64 zeros for the first). */
  prev_hash: string;
  /** SHA-256 over prev_hash and this entry's fields (see audit-chain.fns.ts). */
  hash: string;
}

/** Row shape of `audit_head`: the one row (id 1) holding the chain's last seq and hash. */
export interface AuditHeadTable {
  id: number;
  seq: number;
  hash: string;
}
