import type { DeferredWrites, UnitOfWork } from '../../db/unit-of-work.js';
import { keepDigests } from './drp-pairing.repository.js';
import { type DrpRequestRow, insertDrpRequests } from './drp-request.repository.js';

/** What the filing made, for the DRP record: the filed id and the status object answered. */
type Completion = Pick<DrpRequestRow, 'privacy_request_id' | 'opt_out_id' | 'last_status'>;

/** A DRP record deferred to the commit of the unit that files what it asks for. */
export type PendingDrpRecord = NewDrpRecord | VerifiedDrpRecord;

/** An exercise filed at once: its new record and its body's digest. */
export interface NewDrpRecord {
  readonly kind: 'new';
  /** The record as decided before the filing; `complete` adds what the filing made. */
  readonly record: DrpRequestRow;
  /** The signed body's SHA-256 (hex), kept until `expiresAt` (ISO timestamp): the single-use rule. */
  readonly digest: string;
  readonly expiresAt: string;
  /** ISO timestamp: digests whose time passed before it are dropped. */
  readonly now: string;
  /**
   * Called at the flush, once the filed row's outcome is known: the filed id and the status
   * object answered (`privacy_request_id` or `opt_out_id`, `last_status`).
   */
  readonly complete: () => Completion;
}

/** An exercise filed once the person entered their code: its record becomes `filed`, its wait is deleted. */
export interface VerifiedDrpRecord {
  readonly kind: 'verified';
  readonly requestId: string;
  /** As {@link NewDrpRecord.complete}. */
  readonly complete: () => Completion;
}

/**
 * DRP records as a deferred write (db/unit-of-work.ts, place 4 in `DEFERRED_WRITE_PLACES`, after
 * the filed rows): a record and its body's digest are written in the commit of the privacy
 * request or opt-out it files, behind that row's gate, so an exercise is one commit and a crash
 * leaves either both or neither (PRODUCT §2.19); a record that waited for the person's code
 * becomes `filed` and its wait is deleted in the commit of its filing, likewise. The filing's Idempotency-Key
 * (`drp-<agent>-<agent-request-id>` or `drp-<digest>`) already refused a second filing of the same
 * body or `agent-request-id` in flight, so these inserts meet no unique row of their own; one
 * that did would fail the commit rather than file without its record.
 */
const drpRecords: DeferredWrites<PendingDrpRecord> = {
  name: 'drp records',
  async flush(tx, pending) {
    const news = pending.filter((p): p is NewDrpRecord => p.kind === 'new');
    if (news.length > 0) {
      await keepDigests(
        tx,
        news.map((p) => ({ digest: p.digest, request_id: p.record.request_id, expires_at: p.expiresAt })),
        news[0]!.now,
      );
      await insertDrpRequests(
        tx,
        news.map((p) => ({ ...p.record, ...p.complete() })),
      );
    }
    for (const p of pending) {
      if (p.kind !== 'verified') continue;
      await tx
        .updateTable('drp_requests')
        .set({ status: 'filed', reason: null, processing_details: null, ...p.complete() })
        .where('request_id', '=', p.requestId)
        .execute();
      await tx.deleteFrom('drp_user_verifications').where('request_id', '=', p.requestId).execute();
    }
  },
};

/**
 * Writes `pending`'s record and digest at `stored`'s commit: `stored` is the unit whose deferred
 * writes exist only if the filed row is stored (the filing's `alongside` hook gives it). Sends
 * no statement now.
 */
export function recordDrpAtCommit(stored: UnitOfWork, pending: PendingDrpRecord): void {
  stored.defer(drpRecords, pending);
}
