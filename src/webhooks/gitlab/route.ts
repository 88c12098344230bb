import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changeEventProblem } from '../../modules/change-events/change-event-bounds.js';
import { MAX_DELIVERY_ID_CHARS } from '../../modules/integrations/delivery.repository.js';
import type { Services } from '../../services.js';
import { header, rawText, tryParseJson } from '../shared/webhook-body.js';
import { firstVerified } from '../shared/first-verified.js';
import { webhookErrors } from '../shared/webhook-errors.js';
import { IntegrationQuery, WEBHOOK_RESPONSES } from '../shared/webhook-response.schemas.js';
import { gitlabNamespaces, parseGitlabMergeRequest } from './parse.js';
import { verifyGitlabToken } from './verify.js';

const RECORDED_ACTIONS = new Set(['open', 'update']);

/**
 * The integration the delivery is for: the one `?integration=` names, else the first of the
 * project's group candidates (most specific first, any workspace) whose token matches.
 */
async function authenticate(request: FastifyRequest, services: Services, payload: unknown) {
  const query = request.query as { integration?: string };
  const candidates = query.integration
    ? [await services.integrations.forDelivery('gitlab', { integrationId: query.integration })].filter((c) => c !== null)
    : await services.integrations.candidatesFor('gitlab', gitlabNamespaces(payload));
  const token = header(request, 'x-gitlab-token');
  const target = await firstVerified(candidates, (c) => verifyGitlabToken(c.secret, token));
  if (!target) {
    request.log.warn(
      {
        source: 'gitlab',
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
 * `POST /webhook/mrhost`: GitLab merge-request events (PRODUCT.md §2.6). Checks `X-Gitlab-Token`
 * in constant time; records `Merge Request Hook` with action `open`/`update`, ignores the rest;
 * de-duplicates by `Idempotency-Key`, else `X-Gitlab-Event-UUID`.
 */
export async function gitlabWebhookRoute(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  app.post(
    '/webhook/mrhost',
    { schema: { tags: ['webhooks'], querystring: IntegrationQuery, response: WEBHOOK_RESPONSES } },
    async (request) => {
      const text = rawText(request);
      const payload = text === undefined ? undefined : tryParseJson(text);
      const target = await authenticate(request, services, payload);
      if (!/^application\/json\b/i.test(header(request, 'content-type') ?? '')) throw webhookErrors.unsupportedMediaType();
      if (payload === undefined) throw webhookErrors.badPayload();
      const event = header(request, 'x-gitlab-event');
      if (event !== 'Merge Request Hook') return { status: 'ignored', reason: `${event ?? 'unnamed'} events are not recorded` };
      const change = parseGitlabMergeRequest(payload);
      if (!change) throw webhookErrors.badPayload();
      const problem = changeEventProblem(change);
      if (problem) throw webhookErrors.schemaViolation('GitLab Merge Request Hook', problem);
      if (!RECORDED_ACTIONS.has(change.action))
        return { status: 'ignored', reason: `merge request action ${change.action.slice(0, 100)} is not recorded` };
      const deliveryId = header(request, 'idempotency-key') ?? header(request, 'x-gitlab-event-uuid') ?? '';
      if (deliveryId === '') throw webhookErrors.badPayload();
      if (deliveryId.length > MAX_DELIVERY_ID_CHARS)
        throw webhookErrors.deliveryIdTooLong('Idempotency-Key or X-Gitlab-Event-UUID', MAX_DELIVERY_ID_CHARS);
      return services.changeEvents.record(target, deliveryId, change);
    },
  );
}
