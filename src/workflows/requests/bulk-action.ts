import type { Principal } from '../../modules/principals/principal.js';
import type { PrivacyRequestActions } from './request-actions.js';

/** A bulk action (PRODUCT §2.16): one operator action over several requests, each on its own. */
export interface BulkAction {
  readonly action: 'approve' | 'reject' | 'cancel' | 'extend' | 'assign';
  readonly ids: readonly string[];
  readonly reason?: string | undefined;
  /** For `assign`: the operator's name, or null to unassign. */
  readonly assignee?: string | null | undefined;
}

/** One id's outcome: the request's new status, or what refused or failed it (the caller names it to the client). */
export type BulkOutcome = { readonly id: string; readonly status: string } | { readonly id: string; readonly failure: unknown };

/**
 * Applies `bulk.action` to each id in turn (PRODUCT §2.16): each id in its own unit of work,
 * audited as if done alone, so one refusal or failure fails only itself and the others go on.
 * The body's rule across fields (a reason for reject, cancel and extend; an assignee for assign)
 * is the caller's to check first.
 *
 * @returns one outcome per id, in `bulk.ids`' order.
 */
export async function runBulkAction(
  actions: Pick<PrivacyRequestActions, 'act' | 'assign'>,
  principal: Principal,
  bulk: BulkAction,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  for (const id of bulk.ids) {
    try {
      const done =
        bulk.action === 'assign'
          ? await actions.assign(principal, id, { assignee: bulk.assignee ?? null, reason: bulk.reason })
          : await actions.act(principal, id, bulk.action, bulk.reason === undefined ? {} : { reason: bulk.reason });
      outcomes.push({ id, status: done.status });
    } catch (failure) {
      outcomes.push({ id, failure });
    }
  }
  return outcomes;
}
