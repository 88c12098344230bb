import type { FastifyRequest } from 'fastify';
import { errors } from '../../http/errors/error-catalogue.js';
import type { DeliveryTarget } from '../../modules/integrations/integration.service.js';
import type { Services } from '../../services.js';
import { firstVerified } from './first-verified.js';

/** Why a delivery was refused, for the log line (never the payload, never a header value). */
export type RejectReason = 'no_integration' | 'bad_signature';

/** What one webhook source brings to {@link authenticateDelivery}. */
export interface DeliverySource {
  /** The source's name in logs and the integration kind of `?integration=`. */
  kind: 'github' | 'gitlab' | 'identity';
  /** The integrations that may have sent it when the URL names none (bounded, see MAX_ROUTING_CANDIDATES). */
  candidates(): Promise<readonly DeliveryTarget[]>;
  /** Whether the delivery's signature or token checks out with `target`'s secret (constant time). */
  verify(target: DeliveryTarget): boolean | Promise<boolean>;
  /**
   * Whether the log line of a refusal may name the one candidate's id when the URL named none
   * (the identity source's candidates are every workspace's: it names only one the URL named).
   */
  logsSoleCandidate: boolean;
}

/**
 * The first step of every webhook route (PRODUCT.md §2.6): resolve the integrations the delivery
 * may be for (the one `named` by `?integration=`, else the source's candidates), verify the delivery
 * against each ({@link firstVerified}: all are tried, first match wins), and on failure log one
 * `webhook rejected` line (source, integration id, candidate count, reason) and answer 401.
 * Nothing is parsed or stored before this returns.
 *
 * @returns the integration the delivery is authentic for.
 * @throws HttpError 401 (`errors.webhookUnauthenticated`) when no integration verifies it.
 */
export async function authenticateDelivery(
  request: FastifyRequest,
  services: Services,
  source: DeliverySource,
  named: string | undefined,
): Promise<DeliveryTarget> {
  const candidates = named
    ? [await services.integrations.forDelivery(source.kind, { integrationId: named })].filter((c) => c !== null)
    : await source.candidates();
  const target = await firstVerified(candidates, source.verify);
  if (target) return target;
  const reason: RejectReason = candidates.length > 0 ? 'bad_signature' : 'no_integration';
  const nameable = named !== undefined || source.logsSoleCandidate;
  request.log.warn(
    {
      source: source.kind,
      integrationId: nameable && candidates.length === 1 ? candidates[0]?.id : undefined,
      candidates: candidates.length,
      reason,
    },
    'webhook rejected',
  );
  throw errors.webhookUnauthenticated();
}
