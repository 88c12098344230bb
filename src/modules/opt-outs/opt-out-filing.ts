import type { Insertable } from 'kysely';
import { type DeferredWrites, Gate, type UnitOfWork } from '../../db/unit-of-work.js';
import type { OptOutTable } from '../../db/tables/opt-out.table.js';
import { acceptedOf } from './opt-out.fns.js';
import {
  endOptOut,
  findOptOutIdByClientRequestId,
  insertOptOutUnlessDuplicate,
  setPreferenceUnlessLater,
} from './opt-out.repository.js';
import { OPEN_OPT_OUT_STATUSES, type OptOutFiling } from './opt-out.types.js';

/** An opt-out deferred to its unit's commit by {@link fileOptOutAtCommit}. */
interface PendingOptOut {
  /** `status` `processing` when data systems are to be told of it, else `completed` (with `completed_at`). */
  row: Insertable<OptOutTable> & { id: string; status: string; created_at: string; completed_at: string | null };
  /** Opened when the row is stored, closed when its client_request_id is taken. */
  stored: Gate;
  /** Opened when the row set the subject's preference (settled only for a stored row). */
  preferenceSet: Gate;
  /**
   * Opened when a stored row filed `processing` did not set the preference (a choice received
   * later stands): there is nothing to tell the systems, and it was completed at once.
   */
  completedAtOnce: Gate;
  /** Set by the flush. */
  outcome?: OptOutFiling;
}

/**
 * Filed opt-outs as a deferred write (db/unit-of-work.ts), written after the Idempotency-Key
 * claims and before their propagation, the audit chain and the outbox (`DEFERRED_WRITE_PLACES`):
 * each row unless its `client_request_id` is taken (its gate closes, so nothing announced with it
 * is written, and its outcome names the opt-out holding the id), then the subject's preference
 * of its kind unless a choice received later stands already; a row filed `processing` whose
 * choice does not become the preference is completed at once (nothing to tell the systems).
 */
const filedOptOuts: DeferredWrites<PendingOptOut> = {
  name: 'filed opt-outs',
  async flush(tx, pending) {
    for (const item of pending) {
      const { row } = item;
      const stored = await insertOptOutUnlessDuplicate(tx, row);
      item.stored.settle(stored);
      if (!stored) {
        const existingId = await findOptOutIdByClientRequestId(tx, row.workspace_id, row.client_request_id);
        item.outcome = { kind: 'client_request_id_taken', existingId: existingId ?? null };
        continue;
      }
      // Accepted when filed (honoured at once, 11 CCR §7026(d)): the preference, unless a later-received choice stands.
      const set = await setPreferenceUnlessLater(tx, {
        workspace_id: row.workspace_id,
        subject_provider: row.subject_provider,
        subject_id: row.subject_id,
        kind: row.kind,
        choice: row.choice,
        source: row.source,
        opt_out_id: row.id,
        received_at: row.received_at,
        updated_at: row.created_at,
      });
      item.preferenceSet.settle(set);
      const completeNow = !set && row.status !== 'completed';
      if (completeNow) {
        await endOptOut(tx, row.id, 'completed', row.created_at, OPEN_OPT_OUT_STATUSES);
        row.status = 'completed';
        row.completed_at = row.created_at;
      }
      item.completedAtOnce.settle(completeNow);
      item.outcome = { kind: 'filed', accepted: acceptedOf(row) };
    }
  },
};

/**
 * Files `row` at `unit`'s commit, with the rest of its write batch. `announce` adds what a stored
 * opt-out writes besides its row (audit entry, events, its propagation): on `stored`, a unit whose
 * deferred writes are dropped if the row is not stored; on `preferenceSet`, one whose writes are
 * kept only if the row also set the subject's preference; on `completedAtOnce`, one whose writes
 * are kept only if a row filed `processing` was completed at once instead.
 * @returns the outcome, to be read once the unit's deferred writes were flushed.
 * @throws Error from the returned function when read before the flush.
 */
export function fileOptOutAtCommit(
  unit: UnitOfWork,
  row: PendingOptOut['row'],
  announce: (units: { stored: UnitOfWork; preferenceSet: UnitOfWork; completedAtOnce: UnitOfWork }) => void,
): () => OptOutFiling {
  const item: PendingOptOut = { row, stored: new Gate(), preferenceSet: new Gate(), completedAtOnce: new Gate() };
  unit.defer(filedOptOuts, item);
  const stored = unit.gated(item.stored);
  announce({ stored, preferenceSet: stored.gated(item.preferenceSet), completedAtOnce: stored.gated(item.completedAtOnce) });
  return () => {
    if (item.outcome === undefined) throw new Error('an opt-out was read before its unit committed');
    return item.outcome;
  };
}
