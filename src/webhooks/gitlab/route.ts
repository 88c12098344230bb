import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { header, rawText, tryParseJson } from '../shared/webhook-body.js';
import { webhookErrors } from '../shared/webhook-errors.js';
import { IntegrationQuery, WEBHOOK_RESPONSES } from '../shared/webhook-response.schemas.js';
import { gitlabNamespaces, parseGitlabMergeRequest } from './parse.js';
import { verifyGitlabToken } from './verify.js';

const RECORDED_ACTIONS = new Set(['open', 'update']);

async function authenticate(request: FastifyRequest, services: Services, payload: unknown) {
  const query = request.query as { integration?: string };
  const target = await services.integrations.forDelivery(
    'gitlab',
    query.integration ? { integrationId: query.integration } : { namespaces: gitlabNamespaces(payload) },
  );
  if (!target || !verifyGitlabToken(target.secret, header(request, 'x-gitlab-token'))) {
    request.log.warn(
      { source: 'gitlab', integrationId: target?.id, reason: target ? 'bad_signature' : 'no_integration' },
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
      if (!RECORDED_ACTIONS.has(change.action))
        return { status: 'ignored', reason: `merge request action ${change.action} is not recorded` };
      const deliveryId = header(request, 'idempotency-key') ?? header(request, 'x-gitlab-event-uuid') ?? '';
      if (deliveryId === '') throw webhookErrors.badPayload();
      return services.changeEvents.record(target, deliveryId, change);
    },
  );
}
