import { isFinal } from '../../request-model/request-model.js';

/** What an operator can do to a request (PRODUCT.md §2.3). */
export type OperatorAction = 'approve' | 'reject' | 'cancel' | 'extend' | 'corrections';

/**
 * The status after an operator action, or null when the action is not allowed in `status`
 * (a 409): approve only `pending_approval` → `queued`; reject and cancel any non-final state;
 * extend any non-final state, once; corrections only a `correction` request in `action_required`
 * (→ `completed`).
 */
export function statusAfter(
  action: OperatorAction,
  request: { status: string; request_type: string; extended_due_at: string | null },
): string | null {
  const { status } = request;
  switch (action) {
    case 'approve':
      return status === 'pending_approval' ? 'queued' : null;
    case 'reject':
      return isFinal(status) ? null : 'rejected';
    case 'cancel':
      return isFinal(status) ? null : 'canceled';
    case 'extend':
      return isFinal(status) || request.extended_due_at !== null ? null : status;
    case 'corrections':
      return request.request_type === 'correction' && status === 'action_required' ? 'completed' : null;
  }
}

/** Retry delay after failed attempt `attempt` (1-based): 2^attempt seconds, at most 5 minutes, in ms. */
export function retryDelayMs(attempt: number): number {
  return Math.min(2 ** attempt, 300) * 1000;
}
