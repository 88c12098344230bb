import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { tryLockKey } from '../../db/locking.js';
import { type DeferredWrites, Gate, type UnitOfWork } from '../../db/unit-of-work.js';
import * as repo from './idempotency.repository.js';
import type { ClaimAtCommit, KeyClaim, KeyUse, StoredResponse } from './idempotency.types.js';

/** The name under which a transaction storing (principal, key) holds its lock (see `tryLockKey`). */
export function idempotencyLockName(principalId: string, key: string): string {
  return `idempotency:${principalId}:${key}`;
}

/** A claim deferred to its unit's commit, with what decides on a record found then. */
interface PendingClaim {
  use: KeyUse;
  /** Opened by the flush when the key is claimed. */
  gate: Gate;
  decide: (record: repo.IdempotencyRow) => KeyClaim;
  /** Set by the flush (for a follower of a claimed key, replaced when the key's record is built). */
  outcome?: KeyClaim;
  /** Later claims of the same key in the same batch (on the first). */
  followers: PendingClaim[];
}

const claimsOf = new WeakMap<ClaimAtCommit, PendingClaim>();

/** What the first claim of a key in its batch gets from what the statement found for it. */
async function firstOutcome(tx: Transaction<DB>, claim: PendingClaim, found: repo.RecordOrLocked): Promise<KeyClaim> {
  if (!found.record) return found.locked ? { kind: 'claimed', staleSince: null } : { kind: 'conflict', reason: 'in_flight' };
  const outcome = claim.decide(found.record);
  // Taking over an expired or abandoned record (rare): its key's lock, in a statement of its own.
  if (outcome.kind !== 'claimed') return outcome;
  const { principalId, key } = claim.use;
  return (await tryLockKey(tx, idempotencyLockName(principalId, key))) ? outcome : { kind: 'conflict', reason: 'in_flight' };
}

/**
 * What a later claim of the same key in the same batch gets (`found`: what the statement found
 * for the key): when the first claimed it, the
 * first's response once its record is built (the same body: a replay; another body: `reused`),
 * as a replay after the commit would (docs/operations.md); else its own decision on the same
 * record, never a second take-over.
 */
function followerOutcome(claim: PendingClaim, first: PendingClaim, found: repo.RecordOrLocked): KeyClaim {
  if (first.outcome!.kind === 'claimed') {
    // Replaced by the replay when the first's record is built (keyRecords); in flight until then.
    return claim.use.fingerprint === first.use.fingerprint
      ? { kind: 'conflict', reason: 'in_flight' }
      : { kind: 'conflict', reason: 'reused' };
  }
  const { record } = found;
  const outcome: KeyClaim = record ? claim.decide(record) : { kind: 'conflict', reason: 'in_flight' };
  return outcome.kind === 'claimed' ? { kind: 'conflict', reason: 'in_flight' } : outcome;
}

function settle(claim: PendingClaim, outcome: KeyClaim): void {
  claim.outcome = outcome;
  claim.gate.settle(outcome.kind === 'claimed');
}

/**
 * The keys' claims as a deferred write (db/unit-of-work.ts), settled first at the commit (place 1
 * in `DEFERRED_WRITE_PLACES`, before the filed rows, whose writes they gate): every key of a write batch is looked up,
 * and locked when it has no record, in ONE statement on PostgreSQL (saves a round trip per
 * filing: the claim was the one statement a filing still sent on its own). A key that is not
 * claimed closes its gate, so nothing its unit added is written. A key claimed twice in one batch
 * is looked up once ({@link followerOutcome}).
 */
const keyClaims: DeferredWrites<PendingClaim> = {
  name: 'idempotency claims',
  async flush(tx, claims) {
    const firsts = new Map<string, PendingClaim>();
    for (const claim of claims) {
      const id = JSON.stringify([claim.use.principalId, claim.use.key]);
      const first = firsts.get(id);
      if (first) first.followers.push(claim);
      else firsts.set(id, claim);
    }
    const keys = [...firsts.values()];
    const found = await repo.findRecordsOrLockKeys(
      tx,
      keys.map(({ use }) => ({
        principalId: use.principalId,
        key: use.key,
        lockName: idempotencyLockName(use.principalId, use.key),
      })),
    );
    for (const [i, first] of keys.entries()) {
      const answer = found[i]!;
      settle(first, await firstOutcome(tx, first, answer));
      for (const follower of first.followers) settle(follower, followerOutcome(follower, first, answer));
    }
  },
};

/**
 * Defers `use`'s claim to `unit`'s commit (see {@link keyClaims}); `decide` answers a record
 * found then (idempotency.fns.ts `decideOnExisting`). Sends no statement now.
 */
export function claimAtCommit(unit: UnitOfWork, use: KeyUse, decide: (record: repo.IdempotencyRow) => KeyClaim): ClaimAtCommit {
  const pending: PendingClaim = { use, gate: new Gate(), decide, followers: [] };
  unit.defer(keyClaims, pending);
  const claim: ClaimAtCommit = {
    use,
    unit: unit.gated(pending.gate),
    outcome: () => {
      if (pending.outcome === undefined) throw new Error("a key's claim was read before its unit committed");
      return pending.outcome;
    },
  };
  claimsOf.set(claim, pending);
  return claim;
}

/** A key's record as deferred to its unit's commit: the response is built then (`response()`). */
interface PendingRecord {
  claim: PendingClaim;
  createdAt: string;
  expiresAt: string;
  /** Called at the flush, after the kinds of a lower order (the filed rows) were written. */
  response: () => StoredResponse;
}

/** The `created_at` of the stale record a claimed key replaces, or null. */
function staleSince(claim: PendingClaim): string | null {
  return claim.outcome?.kind === 'claimed' ? claim.outcome.staleSince : null;
}

/**
 * The keys' records as a deferred write (db/unit-of-work.ts): every record a write batch stores
 * goes in one multi-row INSERT right before COMMIT, after the rows whose outcome it keeps. The
 * replaced stale records (rare) are deleted one by one first. Only claimed keys get here (a
 * record is deferred behind its claim's gate); a later claim of the key in the batch with the
 * same body replays the response built here.
 */
const keyRecords: DeferredWrites<PendingRecord> = {
  name: 'idempotency records',
  async flush(tx, records) {
    for (const r of records) {
      const stale = staleSince(r.claim);
      if (stale !== null) await repo.deleteRecord(tx, r.claim.use.principalId, r.claim.use.key, stale);
    }
    const rows = records.map((r) => {
      const response = r.response();
      for (const follower of r.claim.followers) {
        if (follower.use.fingerprint === r.claim.use.fingerprint) follower.outcome = { kind: 'replay', response };
      }
      const { principalId, key, fingerprint } = r.claim.use;
      return {
        principal_id: principalId,
        idempotency_key: key,
        fingerprint,
        created_at: r.createdAt,
        expires_at: r.expiresAt,
        response,
      };
    });
    await repo.insertCompletedRecords(tx, rows);
  },
};

/**
 * Stores `claim`'s key at its unit's commit, if it was claimed then, with the response
 * `response()` builds (after the rows of lower-order deferred kinds were written).
 * @param createdAt - `expiresAt`: ISO timestamps of the record.
 */
export function recordAtCommit(claim: ClaimAtCommit, createdAt: string, expiresAt: string, response: () => StoredResponse): void {
  const pending = claimsOf.get(claim);
  if (!pending) throw new Error('recordAtCommit: a claim not made by claimAtCommit');
  claim.unit.defer(keyRecords, { claim: pending, createdAt, expiresAt, response });
}
