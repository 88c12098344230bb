import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changeEventProblem } from '../../modules/change-events/change-event-bounds.js';
import { MAX_DELIVERY_ID_CHARS } from '../../modules/integrations/inbound-delivery.repository.js';
import type { Services } from '../../services.js';
import { header, rawText, tryParseJson } from '../shared/webhook-body.js';
import { authenticateDelivery, type DeliverySource } from '../shared/delivery-pipeline.js';
import { errors } from '../../http/errors/error-catalogue.js';
import { postWebhook } from '../shared/webhook-route.js';
import { githubNamespace, githubPayloadText, parseGithubPullRequest } from './parse.js';
import { verifyGithubSignature } from './verify.js';

const RECORDED_ACTIONS = new Set(['opened', 'synchronize']);

/**
 * GitHub as a delivery source: the owner's candidates (any workspace) when the URL names no
 * integration, verified by `X-Hub-Signature-256` over `body` (the raw body as UTF-8 text, or
 * empty when it is not UTF-8). `payload` (parsed, unverified) is read for routing only.
 */
function githubSource(request: FastifyRequest, services: Services, body: string, payload: unknown): DeliverySource {
  const signature = header(request, 'x-hub-signature-256');
  return {
    kind: 'github',
    logsSoleCandidate: true,
    candidates: () => {
      const namespace = payload === undefined ? undefined : githubNamespace(payload);
      return services.integrations.candidatesFor('github', namespace ? [namespace] : []);
    },
    verify: (c) => verifyGithubSignature(c.secret, body, signature),
  };
}

/**
 * `POST /webhook/prhost`: GitHub pull-request events (PRODUCT.md §2.6). Verifies
 * `X-Hub-Signature-256` over the raw bytes before trusting anything; records `pull_request`
 * `opened`/`synchronize`, answers `ping`, ignores the rest; de-duplicates by `X-GitHub-Delivery`.
 */
export async function githubWebhookRoute(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  postWebhook(app, '/webhook/prhost', async (request) => {
    const contentType = header(request, 'content-type') ?? '';
    const text = rawText(request);
    const payloadText = githubPayloadText(contentType, text ?? '');
    // Parsed once: for routing before the signature is checked, and used only after it is.
    const payload = payloadText === undefined ? undefined : tryParseJson(payloadText);
    const target = await authenticateDelivery(
      request,
      services,
      githubSource(request, services, text ?? '', payload),
      request.query.integration,
    );
    if (payloadText === undefined) throw errors.unsupportedMediaType();
    if (payload === undefined) throw errors.webhookBadPayload();
    const event = header(request, 'x-github-event');
    if (event === 'ping') return { status: 'accepted' as const, reason: 'ping' };
    const change = event === 'pull_request' ? parseGithubPullRequest(payload) : null;
    if (event === 'pull_request' && change === null) throw errors.webhookBadPayload();
    if (!change) return { status: 'ignored' as const, reason: `${event ?? 'unnamed'} events are not recorded` };
    const problem = changeEventProblem(change);
    if (problem) throw errors.webhookSchemaViolation('GitHub pull_request', problem);
    if (!RECORDED_ACTIONS.has(change.action))
      return { status: 'ignored' as const, reason: `pull_request action ${change.action.slice(0, 100)} is not recorded` };
    const deliveryId = header(request, 'x-github-delivery') ?? '';
    if (deliveryId === '') throw errors.webhookBadPayload();
    if (deliveryId.length > MAX_DELIVERY_ID_CHARS)
      throw errors.webhookDeliveryIdTooLong('X-GitHub-Delivery', MAX_DELIVERY_ID_CHARS);
    return services.changeEvents.record(target, deliveryId, change);
  });
}
