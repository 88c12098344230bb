import type { Executor } from '../../db/executor.js';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { decodeCursor, toPage } from '../../lib/cursor.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import type { OutboundMessageStatus } from '../../db/tables/outbound-event.table.js';
import * as repo from './message-log.repository.js';
import { findEndpoint, lockEndpoint } from './webhook-endpoint.repository.js';
import { EndpointNotFoundError } from './webhook-endpoint.service.js';

/** The message does not exist on that endpoint (404). */
export class MessageNotFoundError extends Error {}

/**
 * Retry or recover on a disabled endpoint (409): nothing is sent to it, and its messages are never
 * claimed, until it is enabled again (`PATCH … {"disabled": false}`).
 */
export class EndpointDisabledError extends Error {}

/** A cursor not issued by the message list (422). */
export class InvalidMessageCursorError extends Error {}

/** One attempt of a message: when, the HTTP status (null without an answer), how long, why it failed. */
export interface AttemptEntry {
  attempt: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** A message as the API shows it: its delivery state and attempts, never its payload. */
export interface OutboundMessageResource {
  id: string;
  endpoint_id: string;
  event_type: string;
  request_id: string | null;
  status: OutboundMessageStatus;
  attempts: AttemptEntry[];
  next_attempt_at: string | null;
  created_at: string;
}

function toMessageResource(row: repo.OutboundMessageRow): OutboundMessageResource {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_type: row.event_type,
    request_id: row.request_id,
    status: row.status,
    attempts: JSON.parse(row.attempts) as AttemptEntry[],
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    created_at: row.created_at,
  };
}

/**
 * An endpoint's message log (PRODUCT §2.8): messages with their attempts, a manual retry of one,
 * and `recover` (every failed message since a time, again). Retry and recover are audited. The
 * payload is not shown: it carries the request resource, which the privacy-requests API shows to
 * whoever may read it.
 */
export function createMessageLogService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;

  async function endpointOf(id: string, covers: (workspaceId: string) => boolean) {
    const endpoint = await findEndpoint(db, id);
    if (!endpoint || !covers(endpoint.workspace_id)) throw new EndpointNotFoundError(id);
    return endpoint;
  }

  /** Locks the endpoint for the unit (a concurrent disable waits) and refuses a disabled one. */
  async function enabledEndpoint(unit: UnitOfWork, id: string): Promise<void> {
    const row = await lockEndpoint(unit.tx, id);
    if (!row) throw new EndpointNotFoundError(id);
    if (row.disabled_at !== null) throw new EndpointDisabledError(id);
  }

  return {
    /**
     * A page of the endpoint's messages, newest first.
     * @throws EndpointNotFoundError; InvalidMessageCursorError.
     */
    async list(
      endpointId: string,
      query: { status?: OutboundMessageStatus; cursor?: string; limit: number },
      covers: (workspaceId: string) => boolean,
    ): Promise<{ items: OutboundMessageResource[]; next_cursor: string | null }> {
      await endpointOf(endpointId, covers);
      const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'msg');
      if (before === null) throw new InvalidMessageCursorError('invalid cursor');
      const rows = await repo.listMessages(db, {
        endpointId,
        ...(query.status ? { status: query.status } : {}),
        ...(before ? { before } : {}),
        limit: query.limit + 1,
      });
      const page = toPage(rows, query.limit);
      return { items: page.items.map(toMessageResource), next_cursor: page.next_cursor };
    },

    /**
     * Sends message `messageId` again now (any status).
     * @throws EndpointNotFoundError, MessageNotFoundError; EndpointDisabledError when the endpoint is disabled.
     */
    async retry(
      endpointId: string,
      messageId: string,
      actor: ActorRef,
      covers: (workspaceId: string) => boolean,
    ): Promise<OutboundMessageResource> {
      const endpoint = await endpointOf(endpointId, covers);
      return runUnitOfWork(db, async (unit) => {
        await enabledEndpoint(unit, endpointId);
        const at = toTimestamp(clock());
        if (!(await repo.findMessage(unit.tx, endpointId, messageId))) throw new MessageNotFoundError(messageId);
        await repo.requeueMessage(unit.tx, messageId, at);
        recordAudit(unit, {
          ...actorFields(actor),
          action: 'webhook_endpoint.message_retried',
          targetType: 'webhook_endpoint',
          targetId: endpointId,
          workspaceId: endpoint.workspace_id,
          details: { message_id: messageId },
          occurredAt: at,
        });
        return toMessageResource((await repo.findMessage(unit.tx, endpointId, messageId)) as repo.OutboundMessageRow);
      });
    },

    /**
     * Queues every `failed` message of the endpoint created at or after `since` again.
     * @returns how many were queued. @throws EndpointNotFoundError; EndpointDisabledError when the endpoint is disabled.
     */
    async recover(endpointId: string, since: string, actor: ActorRef, covers: (workspaceId: string) => boolean): Promise<number> {
      const endpoint = await endpointOf(endpointId, covers);
      return runUnitOfWork(db, async (unit) => {
        await enabledEndpoint(unit, endpointId);
        const at = toTimestamp(clock());
        const count = await repo.requeueFailedSince(unit.tx, endpointId, since, at);
        recordAudit(unit, {
          ...actorFields(actor),
          action: 'webhook_endpoint.recovered',
          targetType: 'webhook_endpoint',
          targetId: endpointId,
          workspaceId: endpoint.workspace_id,
          details: { since, requeued: count },
          occurredAt: at,
        });
        return count;
      });
    },
  };
}

export type MessageLogService = ReturnType<typeof createMessageLogService>;
