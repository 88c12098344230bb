import { type DeferredWrites, Gate, type UnitOfWork } from '../../db/unit-of-work.js';
import { insertNotifyAddress } from '../../modules/privacy-center/mail-outbox.repository.js';
import {
  findIdByClientRequestId,
  insertRequestsUnlessDuplicate,
  type NewRequestRow,
} from '../../modules/privacy-requests/privacy-request.repository.js';
import { resourceJson } from '../../modules/privacy-requests/privacy-request.fns.js';
import type { Filing, PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';

/** Where a filed request's mails go (PRODUCT §2.15), stored with it. */
export interface NotifyAddress {
  email: string;
  /** The request has a status page (its mails link it). */
  statusLink: boolean;
  /** The authorized agent's address (the center's agent path, PRODUCT §2.19): data-less copies of the mails; else null. */
  agentEmail: string | null;
}

/** A filing deferred to its unit's commit by {@link fileAtCommit}. */
interface PendingFiling {
  row: NewRequestRow;
  notify: NotifyAddress | null;
  /** Opened when the row is stored, closed when its client_request_id is taken. */
  gate: Gate;
  /** The request as the filing answers it. */
  request: PrivacyRequestResource;
  /** Set by the flush. */
  outcome?: Filing;
}

/**
 * The filed requests as a deferred write (db/unit-of-work.ts), written at the commit right after the
 * keys' claims (place 2 in `DEFERRED_WRITE_PLACES`): a write batch's request rows in ONE multi-row INSERT instead of one statement
 * per filing. A row whose `client_request_id` is taken (by an earlier request, or an earlier
 * filing of the same batch) is skipped; its gate closes, so its audit entry, events and mail are
 * not written, and its outcome names the request holding the id (a read, rare). Notify
 * addresses (filings through the privacy center, or with `notify_email`) follow their row.
 */
const filedRequests: DeferredWrites<PendingFiling> = {
  name: 'filed requests',
  async flush(tx, filings) {
    const inserted = await insertRequestsUnlessDuplicate(
      tx,
      filings.map((f) => f.row),
    );
    for (const filing of filings) {
      const { row } = filing;
      const filed = inserted.has(row.id);
      filing.gate.settle(filed);
      if (!filed) {
        const existingId = await findIdByClientRequestId(tx, row.workspace_id, row.client_request_id);
        filing.outcome = { kind: 'client_request_id_taken', existingId: existingId ?? null };
        continue;
      }
      if (filing.notify !== null) {
        await insertNotifyAddress(tx, {
          requestId: row.id,
          workspaceId: row.workspace_id,
          email: filing.notify.email,
          statusLink: filing.notify.statusLink,
          agentEmail: filing.notify.agentEmail,
        });
      }
      filing.outcome = { kind: 'filed', request: filing.request };
    }
  },
};

/**
 * Files `row` at `unit`'s commit, with the rest of its write batch (saves two statements per
 * filing: the request row and, through the idempotency records' own deferred write, the key's
 * record go in one multi-row INSERT each per batch). `announce` adds what a stored filing writes
 * besides its row (audit entry, events, mail; given the resource's JSON, {@link resourceJson}) on a unit whose deferred writes are dropped if the
 * row is not stored (its `client_request_id` taken).
 *
 * @returns the filing's outcome, to be read once the unit's deferred writes were flushed (after
 *   its commit, or in a later deferred kind's flush).
 * @throws Error from the returned function when read before the flush.
 */
export function fileAtCommit(
  unit: UnitOfWork,
  row: NewRequestRow,
  request: PrivacyRequestResource,
  notify: NotifyAddress | null,
  announce: (gated: UnitOfWork, json: string) => void,
): () => Filing {
  const gate = new Gate();
  const filing: PendingFiling = { row, notify, gate, request };
  unit.defer(filedRequests, filing);
  announce(unit.gated(gate), resourceJson(request));
  return () => {
    if (filing.outcome === undefined) throw new Error('a filing was read before its unit committed');
    return filing.outcome;
  };
}
