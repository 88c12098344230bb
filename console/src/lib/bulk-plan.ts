// What a bulk action will do to each selected request (PRODUCT §2.16, §2.21), worked out before
// anything is sent from the rules the API applies: the new binding due date of an extension, or
// why a request will be refused. The API decides; this is the preview the officer confirms.
import type { BulkBody, PrivacyRequest } from '../api/types.js';
import { bindingDue, extendedDueDate, formatTime, isFinal, statusLabel } from './deadline.js';

export type BulkAction = BulkBody['action'];

/** What the action will do to one request, as far as the console can tell before sending. */
export interface Planned {
  id: string;
  /** The status it will have, or null when the API will refuse it. */
  becomes: string | null;
  /** Why it will be refused, or the new binding due date of an extension. */
  note: string;
}

/** The preview of `action` on each request, at `now` (ms): the API's own rules (PRODUCT §2.3, §2.13). */
export function planBulk(action: BulkAction, requests: readonly PrivacyRequest[], me: string, now = Date.now()): Planned[] {
  return requests.map((r) => {
    const refuse = (note: string): Planned => ({ id: r.id, becomes: null, note });
    if (action === 'assign') return { id: r.id, becomes: r.status, note: `assigned to ${me}` };
    if (isFinal(r.status)) return refuse(`already ${statusLabel(r.status)}`);
    if (action === 'approve')
      return r.status === 'pending_approval' ? { id: r.id, becomes: 'queued', note: '' } : refuse('not pending approval');
    if (action === 'reject' || action === 'cancel')
      return { id: r.id, becomes: action === 'reject' ? 'rejected' : 'canceled', note: '' };
    if (r.extended_due_at) return refuse(`extended once already (due ${formatTime(r.extended_due_at)})`);
    if (Date.parse(bindingDue(r)) < now) return refuse('its deadline has passed: it can no longer be extended');
    return { id: r.id, becomes: r.status, note: `due ${formatTime(extendedDueDate(r))} (now ${formatTime(r.due_at)})` };
  });
}
