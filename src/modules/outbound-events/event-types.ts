/**
 * Every outbound event type (PRODUCT §2.8), in one list: endpoints may subscribe only to these
 * (an unknown type is a 422 at creation), and {@link enqueueEvent} accepts only these.
 * `data_task.*` are emitted by the data-tasks module (PRODUCT §2.9), `privacy_preference.changed`
 * by the filing of an opt-out or opt-in (PRODUCT §2.18).
 */
export const EVENT_TYPES = [
  'privacy_request.created',
  'privacy_request.status_changed',
  'privacy_request.completed',
  'privacy_request.due_soon',
  'privacy_request.overdue',
  'data_task.created',
  'data_task.overdue',
  'webhook_endpoint.disabled',
  'privacy_preference.changed',
] as const;

/** One outbound event type. */
export type EventType = (typeof EVENT_TYPES)[number];

/** True when `value` is a known event type. */
export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
