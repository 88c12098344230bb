import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { decodeBoundCursor, encodeBoundCursor } from '../../lib/cursor.js';
import { type Principal } from '../principals/principal.js';
import { hasScope } from '../principals/scopes.js';
import { listAuditEvents, verifyAuditChain } from './audit-read.repository.js';
import { type AuditEventView, toAuditEventView } from './audit-event.fns.js';

/** What scope `privacy:read` (without `admin`) sees of its workspaces' trail (PRODUCT.md §2.7). */
export const READER_TARGET_TYPES = ['privacy_request', 'data_task', 'policy_layer'] as const;

/** Filters of {@link AuditService.list}: the query of `GET /api/v1/audit-events`. */
export interface ListAuditEventsInput {
  workspace_id?: string | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
  action?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** `GET /api/v1/audit-events/verify`: the chain recomputed (PRODUCT.md §2.7). */
export interface AuditVerification {
  intact: boolean;
  entries: number;
  first_broken_seq: number | null;
}

const isSeqPosition = (p: readonly unknown[]): p is [number] =>
  p.length === 1 && Number.isSafeInteger(p[0]) && (p[0] as number) >= 0;

/**
 * What `principal` may see: `admin` every target type, others {@link READER_TARGET_TYPES};
 * only its workspaces' entries unless its workspaces are `*` (entries without a workspace,
 * such as token changes, need `*`).
 */
function visibility(principal: Principal) {
  return {
    workspaceIn: principal.workspaces === '*' ? null : [...principal.workspaces],
    targetTypeIn: hasScope(principal.scopes, 'admin') ? null : READER_TARGET_TYPES,
  };
}

/**
 * The audit trail, read (PRODUCT.md §2.7): pages of entries oldest first, a request's timeline
 * (its own entries and its data tasks'), and the chain verification.
 */
export function createAuditService(deps: { db: Kysely<DB> }) {
  const { db } = deps;
  return {
    /**
     * A page of the entries `principal` may see, oldest first. `target_type=privacy_request` with
     * a `target_id` is the request's timeline: its entries and those of its data tasks.
     * The caller checks `workspace_id` against the principal first (403).
     * @throws InvalidCursorError for a cursor not issued here or issued for other filters.
     */
    async list(
      principal: Principal,
      input: ListAuditEventsInput,
    ): Promise<{ items: AuditEventView[]; next_cursor: string | null }> {
      const filters = { w: input.workspace_id, t: input.target_type, i: input.target_id, a: input.action };
      const after = input.cursor === undefined ? undefined : decodeBoundCursor(input.cursor, filters, isSeqPosition)[0];
      const timeline = input.target_type === 'privacy_request' && input.target_id !== undefined;
      const rows = await listAuditEvents(db, {
        ...visibility(principal),
        workspaceId: input.workspace_id,
        ...(timeline ? { requestId: input.target_id } : { targetType: input.target_type, targetId: input.target_id }),
        action: input.action,
        afterSeq: after,
        limit: input.limit + 1,
      });
      const items = rows.slice(0, input.limit);
      const last = items.at(-1);
      return {
        items: items.map(toAuditEventView),
        next_cursor: rows.length > input.limit && last ? encodeBoundCursor([last.seq], filters) : null,
      };
    },

    /** Recomputes the chain in pages inside one read snapshot; the CLI's `audit verify` runs the same. */
    async verify(): Promise<AuditVerification> {
      const { entries, problem } = await verifyAuditChain(db);
      return { intact: problem === null, entries, first_broken_seq: problem?.seq ?? null };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
