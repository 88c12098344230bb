import type { Transact } from '../../db/write-batcher.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { accountPseudonym } from '../../lib/keyed-hash.js';
import { deliveryOutcome } from '../../modules/integrations/inbound-delivery.repository.js';
import type { PolicyService } from '../../modules/policies/policy.service.js';
import { normalizeRepository } from '../../modules/policies/policy-merge.fns.js';
import { isTombstoned } from '../../modules/subjects/subject.repository.js';
import { decide, storedAuthor } from '../../modules/change-events/change-decision.fns.js';
import { boundedTitle } from '../../modules/change-events/change-event-bounds.js';
import * as repo from '../../modules/change-events/change-event.repository.js';
import type { ChangeDecision, IncomingChangeEvent } from '../../modules/change-events/change-event.types.js';

/** How long a delivery id is remembered for de-duplication: 7 days (GitHub and GitLab redeliver within days). */
export const DELIVERY_DEDUP_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** The webhook answer for a recorded (or duplicate) change event. */
export interface RecordOutcome {
  status: 'accepted' | 'duplicate';
  event_id: string;
  decision: ChangeDecision;
}

/** What recording a change event needs. */
export interface ChangeEventDeps {
  readonly transact: Transact;
  readonly clock: Clock;
  readonly policies: Pick<PolicyService, 'effective'>;
  /** The key of the authors' pseudonyms. */
  readonly pseudonymKey: string;
}

/**
 * Change events (PRODUCT.md §2.6): each recorded PR/MR event with the decision of its
 * repository's effective policy. The author is kept only as `author_identity` allows, and not at
 * all once erased (tombstoned). A delivery id is recorded in the same transaction as the event,
 * so a redelivery (even 20 at once) records nothing more.
 *
 * Records one event delivered to `integration` under `deliveryId`. The caller has checked the
 * event with `changeEventProblem` (change-event-bounds.ts); the title is stored truncated.
 */
export async function recordChangeEvent(
  deps: ChangeEventDeps,
  integration: { id: string; workspace_id: string },
  deliveryId: string,
  event: IncomingChangeEvent,
): Promise<RecordOutcome> {
  const { transact, clock, policies, pseudonymKey } = deps;
  const workspaceId = integration.workspace_id;
  const effective = await policies.effective(workspaceId, event.repository);
  const pseudonym = event.author ? accountPseudonym(pseudonymKey, event.provider, event.author.account_id) : null;
  const now = clock();
  const id = newId('chg', now.getTime());
  const receivedAt = toTimestamp(now);
  const expiresAt = toTimestamp(new Date(now.getTime() + DELIVERY_DEDUP_WINDOW_MS));
  return transact(async ({ tx }) => {
    // Inside the transaction: an erasure committing meanwhile is seen, never raced.
    const erased = pseudonym !== null && (await isTombstoned(tx, workspaceId, pseudonym));
    const author = storedAuthor(event.author, effective.policy.author_identity, pseudonym, erased);
    const decision = decide(effective.policy, effective.version, author.reason);
    const outcome: RecordOutcome = { status: 'accepted', event_id: id, decision };
    const repository = normalizeRepository(event.repository);
    const { provider, number, action, head_sha } = event;
    const title = boundedTitle(event.title);
    const recorded = await repo.insertForNewDelivery(tx, {
      id,
      workspace_id: workspaceId,
      integration_id: integration.id,
      provider,
      repository,
      repository_display: event.repository,
      number,
      action,
      head_sha,
      title,
      ...author.columns,
      decision: JSON.stringify(decision),
      policy_version: effective.version,
      received_at: receivedAt,
      delivery_id: deliveryId,
      expires_at: expiresAt,
      outcome: JSON.stringify(outcome),
    });
    if (!recorded) {
      const earlier = await deliveryOutcome(tx, { integration_id: integration.id, delivery_id: deliveryId });
      return { ...(JSON.parse(earlier) as RecordOutcome), status: 'duplicate' as const };
    }
    return outcome;
  });
}
