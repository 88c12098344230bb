import type { FastifyInstance } from 'fastify';
import type { PrivacyCenterConfig } from '../../config/privacy-center-settings.js';
import type { ServiceKeys } from '../../modules/service-keys/service-key.service.js';
import { centerPageRoutes, type CenterPageServices } from '../privacy-center/center-pages.routes.js';
import { registerNoStore } from '../protection/security-headers.js';
import { memoryCounter, redisCounter, type WindowCounter } from '../protection/window-counter.js';
import { createCenterGuards } from './privacy-center-guards.js';
import { privacyCenterPublicRoutes } from './privacy-center-public.routes.js';

/**
 * The privacy center's public side (PRODUCT §2.15), no bearer token: the JSON API under
 * `/privacy-center/v1` and the pages under `/privacy-center`. Their abuse counters are shared
 * through Redis when `REDIS_URL` is set (else in-process). `counter` is exposed for /readyz.
 */
export async function privacyCenterPlugin(
  app: FastifyInstance,
  opts: {
    services: CenterPageServices & { centerConfig: PrivacyCenterConfig; keys: ServiceKeys };
    /** Where the counters live; default from the config (Redis or in-process). */
    counter?: WindowCounter;
  },
) {
  const config = opts.services.centerConfig;
  const counter: WindowCounter = opts.counter ?? (config.redisUrl ? redisCounter(config.redisUrl) : memoryCounter());
  if (!opts.counter) app.addHook('onClose', async () => counter.close());
  const guards = createCenterGuards(config, counter, opts.services.keys.pseudonymKey);
  await app.register(
    async (api) => {
      registerNoStore(api);
      await api.register(privacyCenterPublicRoutes, { services: opts.services, guards });
    },
    { prefix: '/privacy-center/v1' },
  );
  await app.register(
    async (pages) => {
      registerNoStore(pages);
      await pages.register(centerPageRoutes, { services: opts.services, guards, captchaSiteKey: config.captchaSiteKey });
    },
    { prefix: '/privacy-center' },
  );
}
