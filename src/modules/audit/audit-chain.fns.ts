import { createHash } from 'node:crypto';

/** The `prev_hash` of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of an entry that its hash covers. */
export interface ChainedFields {
  seq: number;
  occurred_at: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  workspace_id: string | null;
  /** The stored JSON text, exactly. */
  details: string;
}

/**
 * An entry's hash: SHA-256 (hex) of `prev_hash + "\n" + JSON([seq, occurred_at, actor, action,
 * target_type, target_id, workspace_id, details])`. Editing, removing or reordering any entry
 * changes every hash after it (a hash chain, as in RFC 6962's append-only log, linearly).
 */
export function chainHash(prevHash: string, entry: ChainedFields): string {
  const body = JSON.stringify([
    entry.seq,
    entry.occurred_at,
    entry.actor,
    entry.action,
    entry.target_type,
    entry.target_id,
    entry.workspace_id,
    entry.details,
  ]);
  return createHash('sha256').update(`${prevHash}\n${body}`).digest('hex');
}

/** The first problem found in a chain, or null when it is intact. */
export interface ChainProblem {
  seq: number;
  problem: 'gap' | 'prev_hash_mismatch' | 'hash_mismatch' | 'head_mismatch';
}

/**
 * Checks entries ordered by seq: seqs run 1, 2, 3… without gaps, each `prev_hash` is the previous
 * entry's hash, each `hash` recomputes, and the head names the last entry (so a removed tail
 * is caught too).
 */
export function verifyChain(
  entries: readonly (ChainedFields & { prev_hash: string; hash: string })[],
  head: { seq: number; hash: string },
): ChainProblem | null {
  let prev = GENESIS_HASH;
  for (const [i, entry] of entries.entries()) {
    if (entry.seq !== i + 1) return { seq: i + 1, problem: 'gap' };
    if (entry.prev_hash !== prev) return { seq: entry.seq, problem: 'prev_hash_mismatch' };
    if (chainHash(prev, entry) !== entry.hash) return { seq: entry.seq, problem: 'hash_mismatch' };
    prev = entry.hash;
  }
  if (head.seq !== entries.length || head.hash !== prev) return { seq: head.seq, problem: 'head_mismatch' };
  return null;
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
