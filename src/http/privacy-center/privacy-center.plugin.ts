import type { FastifyInstance } from 'fastify';
import type { PrivacyCenterConfig } from '../../config/privacy-center-settings.js';
import type { ServiceKeys } from '../../modules/service-keys/service-key.service.js';
import { centerPageRoutes } from './center-pages.routes.js';
import type { CenterPageServices } from './center-page-context.js';
import { registerNoStore } from '../protection/security-headers.js';
import { memoryCounter, redisCounter, type WindowCounter } from '../protection/window-counter.js';
import { createCenterGuards } from './center-guards.js';
import { createCenterHealth } from './center-health.js';
import { privacyCenterPublicRoutes } from './center-public.routes.js';
import { centerAgentRoutes } from './center-agent.routes.js';
import { centerAgentPageRoutes } from './center-agent-pages.routes.js';
import type { AgentRequests } from '../../workflows/privacy-center/agent-requests/agent-requests.js';

/**
 * The privacy center's public side (PRODUCT §2.15), no bearer token: the JSON API under
 * `/privacy-center/v1` and the pages under `/privacy-center`. Their abuse counters are shared
 * through Redis when `REDIS_URL` is set (else in-process). `counter` is exposed for /readyz.
 */
/**
 * The counters of the center's abuse limits for `config`: Redis when `REDIS_URL` is set, else
 * in-process; and the probe of its optional parts (/readyz), logged once at start when one does
 * not answer. Closed with `app`.
 */
export function centerParts(app: FastifyInstance, config: PrivacyCenterConfig) {
  const counter: WindowCounter = config.redisUrl ? redisCounter(config.redisUrl) : memoryCounter();
  const health = createCenterHealth(config, counter);
  app.addHook('onClose', async () => counter.close());
  app.addHook('onReady', async () => {
    const problems = await health();
    if (problems.length > 0) app.log.warn({ parts: problems }, 'optional parts of the privacy center are unreachable');
  });
  return { counter, health };
}

export async function privacyCenterPlugin(
  app: FastifyInstance,
  opts: {
    services: CenterPageServices & { centerConfig: PrivacyCenterConfig; keys: ServiceKeys; agentRequests: AgentRequests };
    /** Where the counters live (Redis or in-process), made by {@link centerCounter}. */
    counter: WindowCounter;
  },
) {
  const config = opts.services.centerConfig;
  const counter = opts.counter;
  const guards = createCenterGuards(config, counter, opts.services.keys.pseudonymKey);
  await app.register(
    async (api) => {
      registerNoStore(api);
      await api.register(privacyCenterPublicRoutes, { services: opts.services, guards });
      await api.register(centerAgentRoutes, { services: opts.services, guards });
    },
    { prefix: '/privacy-center/v1' },
  );
  await app.register(
    async (pages) => {
      registerNoStore(pages);
      await pages.register(centerPageRoutes, { services: opts.services, guards, captchaSiteKey: config.captchaSiteKey });
      await pages.register(centerAgentPageRoutes, { services: opts.services });
    },
    { prefix: '/privacy-center' },
  );
}
