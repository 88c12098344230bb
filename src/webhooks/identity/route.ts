import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DeliveryTarget } from '../../modules/integrations/integration.service.js';
import type { Services } from '../../services.js';
import { header, rawText, tryParseJson } from '../shared/webhook-body.js';
import { authenticateDelivery, type DeliverySource } from '../shared/delivery-pipeline.js';
import { errors } from '../../http/errors/error-catalogue.js';
import { postWebhook } from '../shared/webhook-route.js';
import { fileErasureOnDeprovision } from './auto-erase.js';
import { parseClerkEvent } from './parse-clerk.js';
import { type ParsedIdentityEvent, parseStandardEvent } from './parse-standard.js';
import { parseWorkosEvent } from './parse-workos.js';
import { messageId, TIMESTAMP_TOLERANCE_MS, verifyStandardWebhook, verifyWorkosSignature } from './verify.js';

/**
 * The identity provider as a delivery source: every identity integration (any workspace, the
 * oldest few) when the URL names none, each verified in its own format.
 */
function identitySource(request: FastifyRequest, services: Services, now: Date): DeliverySource {
  return {
    kind: 'identity',
    logsSoleCandidate: false,
    candidates: () => services.integrations.identityCandidates(),
    verify: (c) => verified(request, c, now),
  };
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
  postWebhook(app, '/webhook/identity', async (request) => {
    const body = rawText(request);
    const target = await authenticateDelivery(
      request,
      services,
      identitySource(request, services, services.clock()),
      request.query.integration,
    );
    const parsed = parse(request, target, body === undefined ? undefined : tryParseJson(body));
    if (parsed.kind === 'invalid') throw errors.webhookBadPayload();
    if (parsed.kind === 'ignored') return { status: 'ignored' as const, reason: parsed.reason };
    const { event } = parsed;
    if (inFuture(event.occurred_at, services.clock())) throw errors.webhookFutureEvent();
    const result = await services.subjects.applyIdentityEvent(
      target.workspace_id,
      target.subject_provider ?? target.format ?? 'identity',
      event,
    );
    if (result.status === 'erased') return { status: 'ignored' as const, event_id: event.id, reason: 'the subject was erased' };
    const filed =
      event.type === 'user.deleted' && result.state.state === 'deleted'
        ? await fileErasureOnDeprovision(services, target, event)
        : null;
    return { status: result.status, event_id: event.id, ...(filed ? { reason: `deletion request ${filed}` } : {}) };
  });
}
