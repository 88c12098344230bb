import type { Executor } from '../../db/executor.js';
import { forUpdate } from '../../db/locking.js';
import { newId } from '../../lib/ids.js';
import { type ChainedFields, chainHash } from './audit-chain.fns.js';

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

/**
 * Appends one entry to the hash chain. Call it inside the transaction that makes the change it
 * records. The head row is locked (PostgreSQL `FOR UPDATE`; SQLite admits one writer), so
 * concurrent appenders, in any number of processes, queue up and never fork the chain.
 */
export async function appendAuditEvent(db: Executor, entry: AuditEntry): Promise<void> {
  const head = await forUpdate(
    db,
    db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1),
  ).executeTakeFirstOrThrow();
  const fields: ChainedFields = {
    seq: head.seq + 1,
    occurred_at: entry.occurredAt,
    actor: entry.actor,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    workspace_id: entry.workspaceId,
    details: JSON.stringify(entry.details ?? {}),
  };
  const hash = chainHash(head.hash, fields);
  await db
    .insertInto('audit_events')
    .values({ id: newId('aud'), ...fields, prev_hash: head.hash, hash })
    .execute();
  await db.updateTable('audit_head').set({ seq: fields.seq, hash }).where('id', '=', 1).execute();
}

/** Every entry in chain order, and the head. */
export async function readChain(db: Executor) {
  const entries = await db
    .selectFrom('audit_events')
    .select(['seq', 'occurred_at', 'actor', 'action', 'target_type', 'target_id', 'workspace_id', 'details', 'prev_hash', 'hash'])
    .orderBy('seq')
    .execute();
  const head = await db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
  return { entries, head };
}
