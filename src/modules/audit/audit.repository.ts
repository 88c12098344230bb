import type { Executor } from '../../db/executor.js';
import { newId } from '../../lib/ids.js';

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

/** Appends one entry. Call it inside the transaction that makes the change it records. */
export async function appendAuditEvent(db: Executor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: newId('aud'),
      occurred_at: entry.occurredAt,
      actor: entry.actor,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      workspace_id: entry.workspaceId,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
