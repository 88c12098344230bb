import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changeEventProblem } from '../../modules/change-events/change-event-bounds.js';
import { MAX_DELIVERY_ID_CHARS } from '../../modules/integrations/delivery.repository.js';
import type { Services } from '../../services.js';
import { header, rawText, tryParseJson } from '../shared/webhook-body.js';
import { firstVerified } from '../shared/first-verified.js';
import { webhookErrors } from '../shared/webhook-errors.js';
import { IntegrationQuery, WEBHOOK_RESPONSES } from '../shared/webhook-response.schemas.js';
import { githubNamespace, githubPayloadText, parseGithubPullRequest } from './parse.js';
import { verifyGithubSignature } from './verify.js';

const RECORDED_ACTIONS = new Set(['opened', 'synchronize']);

/**
 * The integration the delivery is for, once its signature checks out over `body` (the raw body
 * as UTF-8 text, or empty when it is not UTF-8): the one `?integration=` names, else the first
 * of the owner's candidates (any workspace) whose secret verifies. `payload` (parsed,
 * unverified) is read for routing only.
 */
async function authenticate(request: FastifyRequest, services: Services, body: string, payload: unknown) {
  const query = request.query as { integration?: string };
  const namespace = payload === undefined ? undefined : githubNamespace(payload);
  const candidates = query.integration
    ? [await services.integrations.forDelivery('github', { integrationId: query.integration })].filter((c) => c !== null)
    : await services.integrations.candidatesFor('github', namespace ? [namespace] : []);
  const signature = header(request, 'x-hub-signature-256');
  const target = await firstVerified(candidates, (c) => verifyGithubSignature(c.secret, body, signature));
  if (!target) {
    request.log.warn(
      {
        source: 'github',
        integrationId: candidates.length === 1 ? candidates[0]?.id : undefined,
        candidates: candidates.length,
        reason: candidates.length > 0 ? 'bad_signature' : 'no_integration',
      },
      'webhook rejected',
    );
    throw webhookErrors.unauthenticated();
  }
  return target;
}

/**
 * `POST /webhook/prhost`: GitHub pull-request events (PRODUCT.md §2.6). Verifies
 * `X-Hub-Signature-256` over the raw bytes before trusting anything; records `pull_request`
 * `opened`/`synchronize`, answers `ping`, ignores the rest; de-duplicates by `X-GitHub-Delivery`.
 */
export async function githubWebhookRoute(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  app.post(
    '/webhook/prhost',
    { schema: { tags: ['webhooks'], querystring: IntegrationQuery, response: WEBHOOK_RESPONSES } },
    async (request) => {
      const contentType = header(request, 'content-type') ?? '';
      const text = rawText(request);
      const payloadText = githubPayloadText(contentType, text ?? '');
      // Parsed once: for routing before the signature is checked, and used only after it is.
      const payload = payloadText === undefined ? undefined : tryParseJson(payloadText);
      const target = await authenticate(request, services, text ?? '', payload);
      if (payloadText === undefined) throw webhookErrors.unsupportedMediaType();
      if (payload === undefined) throw webhookErrors.badPayload();
      const event = header(request, 'x-github-event');
      if (event === 'ping') return { status: 'accepted', reason: 'ping' };
      const change = event === 'pull_request' ? parseGithubPullRequest(payload) : null;
      if (event === 'pull_request' && change === null) throw webhookErrors.badPayload();
      if (!change) return { status: 'ignored', reason: `${event ?? 'unnamed'} events are not recorded` };
      const problem = changeEventProblem(change);
      if (problem) throw webhookErrors.schemaViolation('GitHub pull_request', problem);
      if (!RECORDED_ACTIONS.has(change.action))
        return { status: 'ignored', reason: `pull_request action ${change.action.slice(0, 100)} is not recorded` };
      const deliveryId = header(request, 'x-github-delivery') ?? '';
      if (deliveryId === '') throw webhookErrors.badPayload();
      if (deliveryId.length > MAX_DELIVERY_ID_CHARS)
        throw webhookErrors.deliveryIdTooLong('X-GitHub-Delivery', MAX_DELIVERY_ID_CHARS);
      return services.changeEvents.record(target, deliveryId, change);
    },
  );
}
