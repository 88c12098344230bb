import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { dataSystemRoutes } from './http/routes/data-systems.routes.js';
import { dataTaskRoutes } from './http/routes/data-tasks.routes.js';
import { dataCategoryRoutes } from './http/routes/data-categories.routes.js';
import { registerAuthentication } from './http/auth/authenticate.js';
import { frameworkErrorHandler, registerErrorHandler } from './http/errors/error-handler.js';
import { consolePlugin } from './http/console/console.plugin.js';
import { auditEventRoutes } from './http/routes/audit-events.routes.js';
import { controllerProfileRoutes } from './http/routes/controller-profiles.routes.js';
import { changeEventRoutes } from './http/routes/change-events.routes.js';
import { integrationRoutes } from './http/routes/integrations.routes.js';
import { webhookEndpointRoutes } from './http/routes/webhook-endpoints.routes.js';
import { operationsRoutes } from './http/routes/operations.routes.js';
import { policyRoutes } from './http/routes/policies.routes.js';
import { privacyRequestActionRoutes } from './http/routes/privacy-request-actions.routes.js';
import { privacyRequestReviewRoutes } from './http/routes/privacy-request-review.routes.js';
import { privacyRequestResultRoutes } from './http/routes/privacy-request-results.routes.js';
import { packageReviewRoutes } from './http/routes/package-review.routes.js';
import { officerRoutes } from './http/routes/officer.routes.js';
import { reportRoutes } from './http/routes/reports.routes.js';
import { whoamiRoutes } from './http/routes/whoami.routes.js';
import { privacyRequestRoutes } from './http/routes/privacy-requests.routes.js';
import { optOutRoutes } from './http/routes/opt-outs.routes.js';
import { drpAgentRoutes } from './http/routes/drp-agents.routes.js';
import { drpRequestListRoutes } from './http/routes/drp-requests.routes.js';
import { drpSettingsRoutes } from './http/routes/drp-settings.routes.js';
import { drpPlugin } from './http/drp/drp.plugin.js';
import { gpcRoutes } from './http/routes/gpc.routes.js';
import { privacyCenterSettingsRoutes } from './http/privacy-center/center-settings.routes.js';
import { centerParts, privacyCenterPlugin } from './http/privacy-center/privacy-center.plugin.js';
import { registerRateLimits, trustProxyOption } from './http/protection/rate-limits.js';
import { DOCS_CSP, registerNoStore, registerSecurityHeaders } from './http/protection/security-headers.js';
import { timeoutOptions } from './http/protection/timeouts.js';
import { registerOperationDocs } from './http/openapi/document.js';
import { registerJsonBodyParser } from './http/validation/json-body-parser.js';
import { type RouteSchemas, validateRequest } from './http/validation/validate-request.js';
import type { Clock } from './lib/clock.js';
import { loggerOptions, ServiceLogController } from './logger.js';
import { type ConsoleOidcConfig, PROTECTION_DEFAULTS, type ProtectionConfig } from './config.js';
import type { Metrics } from './metrics.js';
import type { Services } from './services.js';
import { webhooksPlugin } from './webhooks/webhooks.plugin.js';

/**
 * Longest raw path segment the router accepts, characters (find-my-way counts the segment as
 * sent, percent-encoded). A path id's own length is the schema's (422): `repository` may be 500
 * code points, each up to 12 characters when percent-encoded (4 UTF-8 bytes as `%XX`).
 */
export const MAX_PATH_SEGMENT_LENGTH = 500 * 12;

/** What {@link buildApp} needs; everything comes in, nothing is read from the environment. */
export interface AppDeps {
  services: Services;
  metrics: Metrics;
  logLevel: string;
  /** Largest accepted body, bytes. */
  bodyLimitBytes: number;
  /** Rate limits, slow-client timeouts, proxy trust (docs/protection.md). Default: production defaults. */
  protection?: ProtectionConfig;
  /** The built web console (PRODUCT.md §2b). Default: `dist/console/` of this checkout. */
  consoleDir?: string;
  /** Console single sign-on (`OIDC_CONSOLE_CLIENT_ID`, config.oidc.console). Default null (pasted tokens only). */
  consoleOidc?: ConsoleOidcConfig | null;
  /** `METRICS_TOKEN`: when set, `/metrics` needs it as a bearer token. Default null (open). */
  metricsToken?: string | null;
}

function registerValidation(app: FastifyInstance, clock: Clock): void {
  // Fastify's Ajv stops at the first failing part and coerces types; the contract (PRODUCT.md
  // §2.1) wants every error at once, Pydantic-shaped, so the route schemas are checked here.
  app.setValidatorCompiler(() => () => true);
  app.addHook('preValidation', (request, _reply, done) => {
    validateRequest(request, request.routeOptions.schema as RouteSchemas | undefined, clock().getTime());
    done();
  });
}

function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status_code: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });
}

async function registerOpenApi(app: FastifyInstance): Promise<void> {
  registerOperationDocs(app);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Privacy request and policy service',
        version: '0.1.0',
        description: 'Privacy (data-subject) requests, effective repository policy and signed webhooks.',
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      },
      servers: [{ url: '/', description: 'This service' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
  });
  // Swagger UI needs same-origin scripts and styles: its pages get their own CSP (security-headers.ts).
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** A route plugin of the authenticated API that takes the services it needs from all of them. */
type ServiceRoutes = (app: FastifyInstance, opts: { services: Services }) => Promise<void>;

/**
 * The authenticated API's route plugins after `/privacy/requests` (which takes the metrics too),
 * with their prefix under `/api/v1`, in registration order (the OpenAPI document lists them so).
 */
const SERVICE_ROUTES: readonly (readonly [ServiceRoutes, string])[] = [
  [officerRoutes, '/privacy/requests'],
  [reportRoutes, '/reports'],
  [whoamiRoutes, '/whoami'],
  [privacyRequestActionRoutes, '/privacy/requests'],
  [privacyRequestReviewRoutes, '/privacy/requests'],
  [privacyRequestResultRoutes, '/privacy/requests'],
  [packageReviewRoutes, '/privacy/requests'],
  [auditEventRoutes, '/audit-events'],
  [policyRoutes, '/policies'],
  [integrationRoutes, '/integrations'],
  [changeEventRoutes, '/change-events'],
  [webhookEndpointRoutes, '/webhook-endpoints'],
  [controllerProfileRoutes, '/workspaces'],
  [privacyCenterSettingsRoutes, '/workspaces'],
  [dataSystemRoutes, '/data-systems'],
  [dataTaskRoutes, '/data-tasks'],
  [dataCategoryRoutes, '/data-categories'],
  [optOutRoutes, '/privacy'],
  [drpSettingsRoutes, '/workspaces'],
  [drpAgentRoutes, '/drp/agents'],
  [drpRequestListRoutes, '/drp/requests'],
];

/**
 * Builds the HTTP application: parsers, validation, auth, routes, error and 404 handlers.
 * Never listens and never reads the environment.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const protection = deps.protection ?? PROTECTION_DEFAULTS;
  const app = Fastify({
    logger: loggerOptions(deps.logLevel),
    logController: new ServiceLogController(),
    bodyLimit: deps.bodyLimitBytes,
    // The closing 503 is the API's own (registerClosingGuard in error-handler.ts), not Fastify's.
    return503OnClosing: false,
    trustProxy: trustProxyOption(protection.trustProxy),
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    ...timeoutOptions(protection),
  });
  registerErrorHandler(app);
  // Headers first, so that every answer (a 429 included) carries them; limits before any route work.
  registerSecurityHeaders(app);
  await registerRateLimits(app, { perToken: protection.rateLimitPerToken, perSource: protection.rateLimitPerSource });
  registerJsonBodyParser(app);
  registerValidation(app, deps.services.clock);
  registerMetrics(app, deps.metrics);
  await registerOpenApi(app);
  const center = centerParts(app, deps.services.centerConfig);
  await app.register(operationsRoutes, {
    services: deps.services,
    optionalParts: center.health,
    metrics: deps.metrics,
    metricsToken: deps.metricsToken ?? null,
  });
  await app.register(gpcRoutes);
  await app.register(webhooksPlugin, { services: deps.services, metrics: deps.metrics });
  await app.register(privacyCenterPlugin, { services: deps.services, counter: center.counter });
  await app.register(drpPlugin, {
    prefix: '/drp',
    services: deps.services,
    metrics: deps.metrics,
    callsPerMinute: protection.drpCallsPerMinute,
  });
  await app.register(consolePlugin, {
    ...(deps.consoleDir ? { dir: deps.consoleDir } : {}),
    oidc: deps.consoleOidc ?? null,
  });
  await app.register(
    async (api) => {
      registerNoStore(api);
      registerAuthentication(api, { tokens: deps.services.tokens, oidc: deps.services.oidc });
      await api.register(privacyRequestRoutes, { prefix: '/privacy/requests', services: deps.services, metrics: deps.metrics });
      for (const [routes, prefix] of SERVICE_ROUTES) await api.register(routes, { prefix, services: deps.services });
    },
    { prefix: '/api/v1' },
  );
  return app;
}
