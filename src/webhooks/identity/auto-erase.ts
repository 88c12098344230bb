import { createHash } from 'node:crypto';
import { IdempotencyConflict } from '../../modules/idempotency/idempotency.service.js';
import type { DeliveryTarget } from '../../modules/integrations/integration.service.js';
import type { CanonicalIdentityEvent } from '../../modules/subjects/identity-event.types.js';
import type { Services } from '../../services.js';

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 40);
}

/**
 * Files a deletion (erasure, GDPR Art. 17) request for a deprovisioned subject when the
 * workspace policy has `auto_erase_on_deprovision`, through the same service as the API.
 * Idempotent on the identity event: its Idempotency-Key and client_request_id derive from the
 * event id, so a redelivery (or a retry after a crash) files nothing more.
 *
 * @returns the request id when one is filed or already was, else null.
 */
export async function fileErasureOnDeprovision(
  services: Services,
  target: DeliveryTarget,
  event: CanonicalIdentityEvent,
): Promise<string | null> {
  const { policy } = await services.policies.effective(target.workspace_id, '');
  if (!policy.auto_erase_on_deprovision || !target.subject_provider) return null;
  const eventKey = shortHash(`${target.id}:${event.id}`);
  const principal = {
    id: `integration:${target.id}`,
    name: target.id,
    scopes: new Set(['privacy:write']),
    workspaces: new Set([target.workspace_id]),
  };
  try {
    const outcome = await services.fileRequest(principal, `identity-event-${eventKey}`, {
      request_type: 'deletion',
      scope: ['user'],
      subject_id: event.data.user_id,
      subject_provider: target.subject_provider,
      workspace_id: target.workspace_id,
      client_request_id: `deprovision-${eventKey}`,
      intake_ref: `identity webhook ${target.id}, event ${eventKey}`,
    });
    return outcome.kind === 'filed' ? outcome.request.id : outcome.existingId;
  } catch (error) {
    // A concurrent redelivery of the same event is filing it right now: that one files it once.
    if (error instanceof IdempotencyConflict && error.reason === 'in_flight') return null;
    throw error;
  }
}
