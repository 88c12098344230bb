import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DeferredWrites, UnitOfWork } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import type { EventType } from './event-types.js';

/** One event to send to a workspace's subscribed endpoints. `data` must hold no secret. */
export interface OutboundEvent {
  readonly workspaceId: string;
  readonly type: EventType;
  /** The event's `data` object (JSON-serialisable). */
  readonly data: object;
  /** `JSON.stringify(data)`, when the caller built it already (a filing's resource): not built again. */
  readonly dataJson?: string;
  /** When the change happened (ISO 8601); defaults to the time the event is enqueued. */
  readonly occurredAt?: string;
  /** The privacy request the event reports, if any: lets an erasure find the messages about it. */
  readonly requestId?: string;
  /**
   * Only this endpoint (`ep_…`) of the workspace receives it (still if enabled and subscribed):
   * a data system's `data_task.created` goes to its own endpoint alone, since it carries the
   * subject's identities. Absent: every subscribed endpoint of the workspace.
   */
  readonly endpointId?: string;
}

/** The outbox as a kind of deferred write: messages are inserted right before COMMIT. */
export const outbox: DeferredWrites<OutboundEvent> = {
  name: 'outbound events',
  flush: (tx, events) => insertMessages(tx, events),
};

/**
 * Enqueues `event` in `unit` (the transactional outbox, PRODUCT §2.8): one `msg_…` row per
 * enabled endpoint of the workspace subscribed to `event.type` is written in the unit's own
 * transaction, right before it commits; nothing is written (and nothing sent) if the unit is
 * rolled back. Delivery happens later, in the worker, never in the transaction. A workspace
 * without subscribed endpoints costs one indexed read at commit.
 */
export function enqueueEvent(unit: UnitOfWork, event: OutboundEvent): void {
  unit.defer(outbox, { ...event, occurredAt: event.occurredAt ?? new Date().toISOString() });
}

/** Whether an endpoint's `event_types` (JSON array or NULL for all) includes `type`. */
function subscribes(eventTypes: string | null, type: string): boolean {
  return eventTypes === null || (JSON.parse(eventTypes) as string[]).includes(type);
}

/**
 * A message's payload, `{"type","timestamp","data"}` as JSON text: the same bytes as
 * `JSON.stringify({ type, timestamp, data })`, with the event's `dataJson` spliced in when given.
 */
function messagePayload(event: OutboundEvent, at: string): string {
  if (event.dataJson === undefined) return JSON.stringify({ type: event.type, timestamp: at, data: event.data });
  return `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(at)},"data":${event.dataJson}}`;
}

async function insertMessages(tx: Transaction<DB>, events: readonly OutboundEvent[]): Promise<void> {
  const workspaces = [...new Set(events.map((e) => e.workspaceId))];
  const endpoints = await tx
    .selectFrom('webhook_endpoints')
    .select(['id', 'workspace_id', 'event_types'])
    .where('workspace_id', 'in', workspaces)
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .execute();
  if (endpoints.length === 0) return;
  const now = new Date().toISOString();
  const rows = events.flatMap((event) => {
    // The change's own time (the service clock that made it) is when the message is due.
    const at = event.occurredAt ?? now;
    const payload = messagePayload(event, at);
    return endpoints
      .filter((ep) => ep.workspace_id === event.workspaceId && subscribes(ep.event_types, event.type))
      .filter((ep) => event.endpointId === undefined || ep.id === event.endpointId)
      .map((ep) => ({
        id: newId('msg'),
        endpoint_id: ep.id,
        workspace_id: event.workspaceId,
        event_type: event.type,
        payload,
        status: 'pending' as const,
        attempts: '[]',
        attempt_count: 0,
        next_attempt_at: at,
        lease_until: null,
        created_at: at,
        request_id: event.requestId ?? null,
      }));
  });
  if (rows.length > 0) await tx.insertInto('outbound_messages').values(rows).execute();
}
