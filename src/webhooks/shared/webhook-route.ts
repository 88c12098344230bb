import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IntegrationQuery, WEBHOOK_RESPONSES, type WebhookOutcome } from './webhook-response.schemas.js';

/** A webhook delivery as its route's handler sees it: the raw body and `?integration=`. */
export type WebhookRequest = FastifyRequest<{ Querystring: Static<typeof IntegrationQuery> }>;

/**
 * Registers the webhook route `POST path` with the schema the three share (tag `webhooks`,
 * {@link IntegrationQuery}, {@link WEBHOOK_RESPONSES}); `handle` answers with the 200 body or throws
 * an API error.
 */
export function postWebhook(
  app: FastifyInstance,
  path: string,
  handle: (request: WebhookRequest) => Promise<Static<typeof WebhookOutcome>>,
): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(path, { schema: { tags: ['webhooks'], querystring: IntegrationQuery, response: WEBHOOK_RESPONSES } }, handle);
}
