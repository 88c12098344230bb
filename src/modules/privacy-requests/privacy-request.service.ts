import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decodeCursor, toPage } from '../../lib/cursor.js';
import { newId } from '../../lib/ids.js';
import { appendAuditEvent } from '../audit/audit.repository.js';
import { fingerprint } from '../idempotency/idempotency.fns.js';
import type { IdempotencyService, StoredResponse } from '../idempotency/idempotency.service.js';
import type { PolicyService } from '../policies/policy.service.js';
import type { Principal } from '../tokens/principal.js';
import { computeDueAt, regulationLabel } from './deadline.fns.js';
import { requestLocation, toResource } from './privacy-request.fns.js';
import * as repo from './privacy-request.repository.js';
import type { CreatePrivacyRequestInput, PrivacyRequestResource } from './privacy-request.types.js';

/** Filters for {@link PrivacyRequestService.list}. `cursor` comes from a previous page. */
export interface ListRequestsInput {
  workspace_id: string;
  status?: string;
  request_type?: string;
  overdue?: boolean;
  cursor?: string;
  limit: number;
}

/** Thrown by `list` for a cursor this service did not issue. */
export class InvalidCursorError extends Error {}

/**
 * Files, reads and lists privacy requests (PRODUCT.md §2.3). Creation is idempotent per
 * Idempotency-Key and unique per (workspace, client_request_id) by a database constraint.
 */
export function createPrivacyRequestService(deps: {
  db: Executor;
  clock: Clock;
  idempotency: IdempotencyService;
  policies: PolicyService;
}) {
  const { db, clock, idempotency, policies } = deps;

  async function insert(
    tx: Executor,
    principal: Principal,
    input: CreatePrivacyRequestInput,
    status: string,
    regulations: ('gdpr' | 'ccpa')[],
  ): Promise<StoredResponse> {
    const received = clock();
    const now = toTimestamp(received);
    const row = {
      id: newId('pr', received.getTime()),
      ...input,
      scope: JSON.stringify(input.scope),
      regulation: regulationLabel(regulations),
      status,
      status_reason: null,
      created_at: now,
      due_at: toTimestamp(computeDueAt(regulations, received)),
      extended_due_at: null,
      completed_at: null,
      updated_at: now,
      attempts: 0,
      lease_owner: null,
      lease_expires_at: null,
      next_attempt_at: null,
      filed_by: principal.id,
    };
    if (!(await repo.insertRequestUnlessDuplicate(tx, row))) {
      const existing = await repo.findIdByClientRequestId(tx, input.workspace_id, input.client_request_id);
      return { status: 409, location: existing ? requestLocation(existing) : null, body: '' };
    }
    await appendAuditEvent(tx, {
      actor: principal.id,
      action: 'privacy_request.created',
      targetType: 'privacy_request',
      targetId: row.id,
      workspaceId: input.workspace_id,
      details: { request_type: input.request_type, status },
      occurredAt: now,
    });
    return { status: 202, location: requestLocation(row.id), body: JSON.stringify(toResource(row)) };
  }

  return {
    /**
     * Files a request. Status is `pending_approval` when the workspace policy requires approval,
     * else `queued`; `due_at` follows the workspace's regulations (GDPR Art. 12(3), CCPA §1798.130).
     *
     * @returns the response to send (202 with the resource, or 409 with the existing Location)
     *   and whether it is a replay.
     * @throws IdempotencyConflict for a reused or in-flight key.
     */
    async create(principal: Principal, idempotencyKey: string, input: CreatePrivacyRequestInput) {
      const { policy } = await policies.effective(input.workspace_id, '');
      const status = policy.require_approval ? 'pending_approval' : 'queued';
      return idempotency.run(principal.id, idempotencyKey, fingerprint(input), (tx) =>
        insert(tx, principal, input, status, policy.regulations),
      );
    },

    /** One request, or null. */
    async get(id: string): Promise<PrivacyRequestResource | null> {
      const row = await repo.findRequestById(db, id);
      return row ? toResource(row) : null;
    },

    /**
     * A page of requests, newest first.
     * @returns `items` and `next_cursor` (null on the last page).
     * @throws InvalidCursorError for a cursor not issued here.
     */
    async list(input: ListRequestsInput): Promise<{ items: PrivacyRequestResource[]; next_cursor: string | null }> {
      const before = input.cursor === undefined ? undefined : decodeCursor(input.cursor, 'pr');
      if (before === null) throw new InvalidCursorError('invalid cursor');
      const rows = await repo.listRequests(db, {
        workspaceId: input.workspace_id,
        status: input.status,
        requestType: input.request_type,
        overdue: input.overdue,
        now: toTimestamp(clock()),
        before,
        limit: input.limit + 1,
      });
      const page = toPage(rows, input.limit);
      return { items: page.items.map(toResource), next_cursor: page.next_cursor };
    },
  };
}

export type PrivacyRequestService = ReturnType<typeof createPrivacyRequestService>;
