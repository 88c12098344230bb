import type { Kysely, Transaction } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import { withReadSnapshot } from '../../db/read-snapshot.js';
import type { DB } from '../../db/schema.js';
import type { BatchHooks } from '../../db/write-batcher.js';
import { newId } from '../../lib/ids.js';
import { linkEntries } from './audit-chain.fns.js';

/** One audit entry to append. `details` must hold no personal data. */
export interface AuditEntry {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  workspaceId: string | null;
  details?: Record<string, unknown>;
  occurredAt: string;
}

/** Rows per INSERT statement when a batch appends many entries (well under PostgreSQL's 65535 parameters). */
const INSERT_CHUNK = 500;

/** Entries the units of a batch transaction deferred to its commit, in order (see {@link auditBatchHooks}). */
const deferred = new WeakMap<Executor, AuditEntry[]>();

/**
 * Appends `entries`, in order, to the hash chain under ONE lock on the head row (PostgreSQL
 * `FOR UPDATE`; SQLite admits one writer): one head read, one multi-row insert (per
 * {@link INSERT_CHUNK} entries), one head update. Concurrent appenders, in any number of
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
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      workspace_id: entry.workspaceId,
      details: JSON.stringify(entry.details ?? {}),
    })),
  );
  for (let i = 0; i < linked.length; i += INSERT_CHUNK) {
    const rows = linked.slice(i, i + INSERT_CHUNK).map((row) => ({ id: newId('aud'), ...row }));
    await db.insertInto('audit_events').values(rows).execute();
  }
  await db.updateTable('audit_head').set(next).where('id', '=', 1).execute();
}

/**
 * Appends one entry to the hash chain. Call it inside the transaction that makes the change it
 * records.
 *
 * - In a batch transaction of `database.transact` (see {@link auditBatchHooks}):
 *   the entry is held back and appended, with the other units' entries, right before that
 *   transaction commits; if the calling unit is rolled back, so is its entry. The caller does not
 *   see its entry in `audit_events` before the commit.
 * - Anywhere else (a plain `db.transaction()`): appended at once, like
 *   {@link appendAuditEvents} with one entry, holding the head row lock until commit.
 */
export async function appendAuditEvent(db: Executor, entry: AuditEntry): Promise<void> {
  const held = deferred.get(db);
  if (held) held.push(entry);
  else await appendAuditEvents(db, [entry]);
}

/**
 * How a write batch (db/write-batcher.ts) defers the audit chain's appends to its commit: the
 * units of the batch append to a per-transaction list instead of the chain; a unit rolled back to
 * its savepoint drops what it added; right before COMMIT all of them are appended in unit order
 * with {@link appendAuditEvents}. The head row is thus locked last and only from the flush to the
 * commit, once per batch instead of once per unit; a batch holding it waits for nothing else, so
 * two batches never deadlock over it. (A plain transaction that appends and then waits for a row
 * a batch holds can still close a cycle; PostgreSQL breaks it and the batcher runs the batch again.)
 */
export const auditBatchHooks: BatchHooks = {
  open: (tx: Transaction<DB>) => void deferred.set(tx, []),
  mark: (tx: Transaction<DB>) => deferred.get(tx)?.length ?? 0,
  rollback: (tx: Transaction<DB>, mark: number) => void deferred.get(tx)?.splice(mark),
  flush: async (tx: Transaction<DB>) => {
    const entries = deferred.get(tx) ?? [];
    deferred.delete(tx);
    await appendAuditEvents(tx, entries);
  },
};

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
        'prev_hash',
        'hash',
      ])
      .orderBy('seq')
      .execute();
    const head = await snapshot.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
    return { entries, head };
  });
}
