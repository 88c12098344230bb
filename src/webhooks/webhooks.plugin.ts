import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { githubWebhookRoute } from './github/route.js';
import { gitlabWebhookRoute } from './gitlab/route.js';
import { identityWebhookRoute } from './identity/route.js';
import { registerRawBodyParser } from './shared/webhook-body.js';

/**
 * The three webhook receivers, in a scope of their own: no bearer token (each delivery proves
 * itself), raw-byte bodies, nothing parsed or stored before the signature checks out.
 */
export async function webhooksPlugin(app: FastifyInstance, opts: { services: Services }) {
  registerRawBodyParser(app);
  await app.register(githubWebhookRoute, opts);
  await app.register(gitlabWebhookRoute, opts);
  await app.register(identityWebhookRoute, opts);
}
