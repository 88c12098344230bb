import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changeEventProblem } from '../../modules/change-events/change-event-bounds.js';
import { MAX_DELIVERY_ID_CHARS } from '../../modules/integrations/inbound-delivery.repository.js';
import type { Services } from '../../services.js';
import { header, rawText, tryParseJson } from '../shared/webhook-body.js';
import { authenticateDelivery, type DeliverySource } from '../shared/delivery-pipeline.js';
import { errors } from '../../http/errors/error-catalogue.js';
import { postWebhook } from '../shared/webhook-route.js';
import { gitlabNamespaces, parseGitlabMergeRequest } from './parse.js';
import { verifyGitlabToken } from './verify.js';

const RECORDED_ACTIONS = new Set(['open', 'update']);

/**
 * GitLab as a delivery source: the project's group candidates (most specific first, any
 * workspace) when the URL names no integration, verified by `X-Gitlab-Token` in constant time.
 */
function gitlabSource(request: FastifyRequest, services: Services, payload: unknown): DeliverySource {
  const token = header(request, 'x-gitlab-token');
  return {
    kind: 'gitlab',
    logsSoleCandidate: true,
    candidates: () => services.integrations.candidatesFor('gitlab', gitlabNamespaces(payload)),
    verify: (c) => verifyGitlabToken(c.secret, token),
  };
}

/**
 * `POST /webhook/mrhost`: GitLab merge-request events (PRODUCT.md §2.6). Checks `X-Gitlab-Token`
 * in constant time; records `Merge Request Hook` with action `open`/`update`, ignores the rest;
 * de-duplicates by `Idempotency-Key`, else `X-Gitlab-Event-UUID`.
 */
export async function gitlabWebhookRoute(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  postWebhook(app, '/webhook/mrhost', async (request) => {
    const text = rawText(request);
    const payload = text === undefined ? undefined : tryParseJson(text);
    const target = await authenticateDelivery(
      request,
      services,
      gitlabSource(request, services, payload),
      request.query.integration,
    );
    if (!/^application\/json\b/i.test(header(request, 'content-type') ?? '')) throw errors.unsupportedMediaType();
    if (payload === undefined) throw errors.webhookBadPayload();
    const event = header(request, 'x-gitlab-event');
    if (event !== 'Merge Request Hook')
      return { status: 'ignored' as const, reason: `${event ?? 'unnamed'} events are not recorded` };
    const change = parseGitlabMergeRequest(payload);
    if (!change) throw errors.webhookBadPayload();
    const problem = changeEventProblem(change);
    if (problem) throw errors.webhookSchemaViolation('GitLab Merge Request Hook', problem);
    if (!RECORDED_ACTIONS.has(change.action))
      return { status: 'ignored' as const, reason: `merge request action ${change.action.slice(0, 100)} is not recorded` };
    const deliveryId = header(request, 'idempotency-key') ?? header(request, 'x-gitlab-event-uuid') ?? '';
    if (deliveryId === '') throw errors.webhookBadPayload();
    if (deliveryId.length > MAX_DELIVERY_ID_CHARS)
      throw errors.webhookDeliveryIdTooLong('Idempotency-Key or X-Gitlab-Event-UUID', MAX_DELIVERY_ID_CHARS);
    return services.changeEvents.record(target, deliveryId, change);
  });
}
