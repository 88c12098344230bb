import { createHash } from 'node:crypto';
import type { AuditEventTable } from '../../db/tables/audit.table.js';

/** The `prev_hash` of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The fields of an entry that its hash covers (the stored columns; `details` the stored JSON
 * text, exactly). `actor_name` (entries written since 2026-11-24) is null or absent on earlier
 * entries; `request_id` is hashed only with an `actor_name`.
 */
export type ChainedFields = Pick<
  AuditEventTable,
  'seq' | 'occurred_at' | 'actor' | 'action' | 'target_type' | 'target_id' | 'workspace_id' | 'details'
> &
  Partial<Pick<AuditEventTable, 'actor_name' | 'request_id'>>;

/**
 * An entry's hash: SHA-256 (hex) of `prev_hash + "\n" + JSON([seq, occurred_at, actor, action,
 * target_type, target_id, workspace_id, details])`, and for an entry with an `actor_name`
 * (every entry written since 2026-11-24) `JSON([…the same…, actor_name, request_id])`. Earlier
 * entries keep the hash they were written with (their `request_id` was filled afterwards, by a
 * migration, and is not hashed). Editing, removing or reordering any entry changes every hash
 * after it (a hash chain, as in RFC 6962's append-only log, linearly).
 */
export function chainHash(prevHash: string, entry: ChainedFields): string {
  const fields: unknown[] = [
    entry.seq,
    entry.occurred_at,
    entry.actor,
    entry.action,
    entry.target_type,
    entry.target_id,
    entry.workspace_id,
    entry.details,
  ];
  if (entry.actor_name != null) fields.push(entry.actor_name, entry.request_id ?? null);
  return createHash('sha256')
    .update(`${prevHash}\n${JSON.stringify(fields)}`)
    .digest('hex');
}

/** The first problem found in a chain, or null when it is intact. */
export interface ChainProblem {
  seq: number;
  problem: 'gap' | 'prev_hash_mismatch' | 'hash_mismatch' | 'head_mismatch';
}

/** A stored entry as the verifier reads it. */
export type StoredEntry = ChainedFields & { prev_hash: string; hash: string };

/**
 * A verifier fed entries one at a time, in seq order (constant memory, for a chain read in
 * pages): `add` checks one entry against the previous one, `finish` checks the head. After the
 * first problem it only counts.
 */
export function createChainVerifier() {
  let prev = GENESIS_HASH;
  let count = 0;
  let problem: ChainProblem | null = null;
  return {
    /** Checks the next entry: seq is the next one, `prev_hash` links, `hash` recomputes. */
    add(entry: StoredEntry): void {
      count += 1;
      if (problem) return;
      if (entry.seq !== count) problem = { seq: count, problem: 'gap' };
      else if (entry.prev_hash !== prev) problem = { seq: entry.seq, problem: 'prev_hash_mismatch' };
      else if (chainHash(prev, entry) !== entry.hash) problem = { seq: entry.seq, problem: 'hash_mismatch' };
      else prev = entry.hash;
    },
    /** The first problem, with the head naming the last entry (a removed tail is caught too). @returns null when intact. */
    finish(head: { seq: number; hash: string }): ChainProblem | null {
      if (problem) return problem;
      if (head.seq !== count || head.hash !== prev) return { seq: head.seq, problem: 'head_mismatch' };
      return null;
    },
    /** Entries added so far. */
    get count(): number {
      return count;
    },
  };
}

/**
 * Checks entries ordered by seq: seqs run 1, 2, 3… without gaps, each `prev_hash` is the previous
 * entry's hash, each `hash` recomputes, and the head names the last entry (so a removed tail
 * is caught too).
 */
export function verifyChain(entries: readonly StoredEntry[], head: { seq: number; hash: string }): ChainProblem | null {
  const verifier = createChainVerifier();
  for (const entry of entries) verifier.add(entry);
  return verifier.finish(head);
}

/** The chain's last position: its seq (0 when empty) and hash ({@link GENESIS_HASH} when empty). */
export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Links `entries`, in order, onto the chain after `head`: each gets the next seq, the previous
 * entry's hash as `prev_hash` and its own {@link chainHash}.
 *
 * @returns the linked entries and the new head (`head` itself when `entries` is empty).
 */
export function linkEntries<E extends Omit<ChainedFields, 'seq'>>(
  head: ChainHead,
  entries: readonly E[],
): { linked: (E & { seq: number; prev_hash: string; hash: string })[]; head: ChainHead } {
  let { seq, hash } = head;
  const linked = entries.map((entry) => {
    const prev_hash = hash;
    seq += 1;
    hash = chainHash(prev_hash, { ...entry, seq });
    return { ...entry, seq, prev_hash, hash };
  });
  return { linked, head: { seq, hash } };
}
