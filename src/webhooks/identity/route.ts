import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DeliveryTarget } from '../../modules/integrations/integration.service.js';
import type { Services } from '../../services.js';
import { header, rawText, tryParseJson } from '../shared/webhook-body.js';
import { firstVerified } from '../shared/first-verified.js';
import { webhookErrors } from '../shared/webhook-errors.js';
import { IntegrationQuery, WEBHOOK_RESPONSES } from '../shared/webhook-response.schemas.js';
import { fileErasureOnDeprovision } from './auto-erase.js';
import { parseClerkEvent } from './parse-clerk.js';
import { type ParsedIdentityEvent, parseStandardEvent } from './parse-standard.js';
import { parseWorkosEvent } from './parse-workos.js';
import { messageId, TIMESTAMP_TOLERANCE_MS, verifyStandardWebhook, verifyWorkosSignature } from './verify.js';

/**
 * The integration the delivery is for, once its signature checks out: the one `?integration=`
 * names, else the first of the identity integrations (any workspace, the oldest few) whose
 * secret verifies it. Each candidate is checked in its own format.
 */
async function authenticate(request: FastifyRequest, services: Services, now: Date): Promise<DeliveryTarget> {
  const { integration } = request.query as { integration?: string };
  const candidates = integration
    ? [await services.integrations.forDelivery('identity', { integrationId: integration })].filter((c) => c !== null)
    : await services.integrations.identityCandidates();
  const target = await firstVerified(candidates, (c) => verified(request, c, now));
  if (!target) {
    request.log.warn(
      {
        source: 'identity',
        integrationId: integration && candidates.length === 1 ? candidates[0]?.id : undefined,
        candidates: candidates.length,
        reason: candidates.length > 0 ? 'bad_signature' : 'no_integration',
      },
      'webhook rejected',
    );
    throw webhookErrors.unauthenticated();
  }
  return target;
}

function verified(request: FastifyRequest, target: DeliveryTarget, now: Date): boolean {
  const raw = request.rawBody ?? Buffer.alloc(0);
  if (target.format === 'workos') return verifyWorkosSignature(target.secret, header(request, 'workos-signature'), raw, now);
  return verifyStandardWebhook(target.secret, request, raw);
}

function parse(request: FastifyRequest, target: DeliveryTarget, payload: unknown): ParsedIdentityEvent {
  if (target.format === 'clerk') return parseClerkEvent(payload, messageId(request));
  if (target.format === 'workos') return parseWorkosEvent(payload);
  return parseStandardEvent(payload);
}

/**
 * True when `occurredAt` is later than `now` plus {@link TIMESTAMP_TOLERANCE_MS}. Such an event is
 * refused: stored, it would sort after every real event and make the subject ignore them all.
 */
function inFuture(occurredAt: string, now: Date): boolean {
  return Date.parse(occurredAt) > now.getTime() + TIMESTAMP_TOLERANCE_MS;
}

/**
 * `POST /webhook/identity[?integration=int_…]`: identity-lifecycle events (PRODUCT.md §2.6) in
 * the integration's format (Standard Webhooks, Clerk via Svix, WorkOS). Verified before anything
 * is parsed; an event dated more than the tolerance in the future is a 400; applied idempotently
 * to the subject; `user.deleted` under `auto_erase_on_deprovision` files a deletion request.
 */
export async function identityWebhookRoute(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  app.post(
    '/webhook/identity',
    { schema: { tags: ['webhooks'], querystring: IntegrationQuery, response: WEBHOOK_RESPONSES } },
    async (request) => {
      const body = rawText(request);
      const target = await authenticate(request, services, services.clock());
      const parsed = parse(request, target, body === undefined ? undefined : tryParseJson(body));
      if (parsed.kind === 'invalid') throw webhookErrors.badPayload();
      if (parsed.kind === 'ignored') return { status: 'ignored', reason: parsed.reason };
      const { event } = parsed;
      if (inFuture(event.occurred_at, services.clock())) throw webhookErrors.futureEvent();
      const result = await services.subjects.applyIdentityEvent(
        target.workspace_id,
        target.subject_provider ?? target.format ?? 'identity',
        event,
      );
      if (result.status === 'erased') return { status: 'ignored', event_id: event.id, reason: 'the subject was erased' };
      const filed =
        event.type === 'user.deleted' && result.state.state === 'deleted'
          ? await fileErasureOnDeprovision(services, target, event)
          : null;
      return { status: result.status, event_id: event.id, ...(filed ? { reason: `deletion request ${filed}` } : {}) };
    },
  );
}
