import type { Insertable, Kysely } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import { multiRowInsert } from '../../db/multi-row-insert.js';
import type { AuditEventTable } from '../../db/tables/audit.table.js';
import { withReadSnapshot } from '../../db/read-snapshot.js';
import type { DB } from '../../db/schema.js';
import type { DeferredWrites, UnitOfWork } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import { linkEntries } from './audit-chain.fns.js';

/**
 * One audit entry to append. `details` must hold no personal data (no subject's email, name,
 * login or raw subject id: keyed pseudonyms only, PRODUCT.md §2.7).
 */
export interface AuditEntry {
  /** Who: `token:tok_…`, `oidc:<sub>`, `integration:int_…`, or the service (`worker`, `cli`…). */
  actor: string;
  /** The actor's name (a token's name, an OIDC display claim); absent: the actor itself is its name. */
  actorName?: string;
  /** The privacy request the entry belongs to: set on a request's and its data tasks' entries (its timeline). */
  requestId?: string;
  action: string;
  targetType: string;
  targetId: string;
  workspaceId: string | null;
  details?: Record<string, unknown>;
  occurredAt: string;
}

const insertEventRows = multiRowInsert<Insertable<AuditEventTable> & { id: string }>('audit_events', [
  'id',
  'occurred_at',
  'actor',
  'actor_name',
  'request_id',
  'action',
  'target_type',
  'target_id',
  'workspace_id',
  'details',
  'seq',
  'prev_hash',
  'hash',
]);

/**
 * Appends `entries`, in order, to the hash chain under ONE lock on the head row (PostgreSQL
 * `FOR UPDATE`; SQLite admits one writer): one head read, one multi-row insert (db/multi-row-insert.ts,
 * its text built once per row count), one head update. Concurrent appenders, in any number of
 * processes, queue up on the head and never fork the chain. Does nothing for no entries.
 */
export async function appendAuditEvents(db: Executor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const head = await forUpdate(
    db,
    db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1),
  ).executeTakeFirstOrThrow();
  const { linked, head: next } = linkEntries(
    head,
    entries.map((entry) => ({
      occurred_at: entry.occurredAt,
      actor: entry.actor,
      actor_name: entry.actorName ?? entry.actor,
      // An entry about a request belongs to its timeline even when its writer named no requestId.
      request_id: entry.requestId ?? (entry.targetType === 'privacy_request' ? entry.targetId : null),
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      workspace_id: entry.workspaceId,
      details: JSON.stringify(entry.details ?? {}),
    })),
  );
  await insertEventRows(
    db,
    linked.map((row) => ({ id: newId('aud'), ...row })),
  );
  await db.updateTable('audit_head').set(next).where('id', '=', 1).execute();
}

/**
 * The audit chain as a deferred write of a unit of work (db/unit-of-work.ts): units add their
 * entries with {@link recordAudit}; right before the transaction commits, all of them (every
 * unit's of a write batch, in unit order) are appended with {@link appendAuditEvents}. A unit
 * rolled back to its savepoint drops its entries. The head row is thus locked last and only from
 * the flush to the commit, once per batch instead of once per unit; a batch holding it waits for
 * nothing else, so two batches never deadlock over it.
 */
export const auditTrail: DeferredWrites<AuditEntry> = {
  name: 'audit trail',
  flush: (tx, entries) => appendAuditEvents(tx, entries),
};

/**
 * Records `entry` in `unit`: it is appended to the hash chain right before the unit's
 * transaction commits, and not at all if the unit is rolled back. The caller does not see its
 * entry in `audit_events` before the commit.
 */
export function recordAudit(unit: UnitOfWork, entry: AuditEntry): void {
  unit.defer(auditTrail, entry);
}

/** Who acted, for a service method that audits: an actor id alone, or an id and the name to record (a Principal is one). */
export type ActorRef = string | { readonly id: string; readonly name: string };

/** The `actor` and `actorName` of an {@link AuditEntry} for `actor`. */
export function actorFields(actor: ActorRef): { actor: string; actorName?: string } {
  return typeof actor === 'string' ? { actor } : { actor: actor.id, actorName: actor.name };
}

/**
 * Every entry in chain order, and the head, read in one snapshot ({@link withReadSnapshot}), so a
 * chain that grows while it is read is seen as it was at one moment: its entries and its head
 * agree. (Read one after the other, an append committed in between made an intact chain look
 * cut off: `head_mismatch`.)
 */
export async function readChain(db: Kysely<DB>) {
  return withReadSnapshot(db, async (snapshot) => {
    const entries = await snapshot
      .selectFrom('audit_events')
      .select([
        'seq',
        'occurred_at',
        'actor',
        'action',
        'target_type',
        'target_id',
        'workspace_id',
        'details',
        'actor_name',
        'request_id',
        'prev_hash',
        'hash',
      ])
      .orderBy('seq')
      .execute();
    const head = await snapshot.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
    return { entries, head };
  });
}
