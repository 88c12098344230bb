import type { AuditEventRow } from './audit-read.repository.js';

/** Who acted, as the audit trail API shows it (PRODUCT.md §2.7). */
export interface AuditActorView {
  type: 'token' | 'oidc' | 'system' | 'webhook' | 'subject' | 'agent';
  id: string;
  name: string;
}

/** One entry as the audit trail API shows it (PRODUCT.md §2.7). */
export interface AuditEventView {
  seq: number;
  occurred_at: string;
  actor: AuditActorView;
  action: string;
  target_type: string;
  target_id: string;
  workspace_id: string | null;
  reason: string | null;
  details: Record<string, unknown>;
  hash: string;
}

const PREFIXED: [prefix: string, type: AuditActorView['type']][] = [
  ['token:', 'token'],
  ['oidc:', 'oidc'],
  ['integration:', 'webhook'],
  // A data subject acting through the privacy center, by keyed pseudonym (PRODUCT §2.15).
  ['subject:', 'subject'],
  // A DRP authorized agent filing or revoking for the person (PRODUCT §2.19), by its `agent-id`.
  ['agent:', 'agent'],
];

/**
 * The stored actor (`token:tok_…`, `oidc:<sub>`, `integration:int_…`, `agent:<agent-id>`, or the service's own
 * `worker`, `retention-sweeper`, `cli`…) as `{type, id, name}`. `storedName` is the name recorded
 * with the entry; entries from before names were recorded show the id as the name.
 */
export function actorView(actor: string, storedName: string | null): AuditActorView {
  for (const [prefix, type] of PREFIXED) {
    if (actor.startsWith(prefix)) {
      const id = actor.slice(prefix.length);
      return { type, id, name: storedName ?? id };
    }
  }
  return { type: 'system', id: actor, name: storedName ?? actor };
}

/** A stored row as an API item: the actor split, `reason` lifted from `details` (kept there too, as hashed). */
export function toAuditEventView(row: AuditEventRow): AuditEventView {
  const details = JSON.parse(row.details) as Record<string, unknown>;
  return {
    seq: row.seq,
    occurred_at: row.occurred_at,
    actor: actorView(row.actor, row.actor_name),
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    workspace_id: row.workspace_id,
    reason: typeof details.reason === 'string' ? details.reason : null,
    details,
    hash: row.hash,
  };
}
