import type { FastifyInstance } from 'fastify';
import type { PrivacyCenterConfig } from '../../config/privacy-center-settings.js';
import type { ServiceKeys } from '../../modules/service-keys/service-key.service.js';
import type { SubmissionService } from '../../modules/privacy-center/submission.service.js';
import type { CenterIntake } from '../../modules/privacy-requests/center-intake.js';
import { registerNoStore } from '../protection/security-headers.js';
import { memoryCounter, redisCounter, type WindowCounter } from '../protection/window-counter.js';
import { createCenterGuards } from './privacy-center-guards.js';
import { privacyCenterPublicRoutes } from './privacy-center-public.routes.js';

/**
 * The privacy center's public side (PRODUCT §2.15), no bearer token: the JSON API under
 * `/privacy-center/v1`. Its abuse counters are shared through Redis when `REDIS_URL` is set.
 */
export async function privacyCenterPlugin(
  app: FastifyInstance,
  opts: {
    services: {
      centerConfig: PrivacyCenterConfig;
      centerSubmissions: SubmissionService;
      centerIntake: CenterIntake;
      keys: ServiceKeys;
    };
  },
) {
  const config = opts.services.centerConfig;
  const counter: WindowCounter = config.redisUrl ? redisCounter(config.redisUrl) : memoryCounter();
  app.addHook('onClose', async () => counter.close());
  const guards = createCenterGuards(config, counter, opts.services.keys.pseudonymKey);
  await app.register(
    async (api) => {
      registerNoStore(api);
      await api.register(privacyCenterPublicRoutes, { services: opts.services, guards });
    },
    { prefix: '/privacy-center/v1' },
  );
}
