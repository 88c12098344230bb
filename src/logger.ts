import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { LoggerOptions } from 'pino';

/**
 * Headers that carry credentials or signatures: never logged (their values are replaced).
 * Includes GitHub's, GitLab's, Standard Webhooks'/Svix's and WorkOS's signature headers.
 */
const SECRET_HEADERS = [
  'authorization',
  'cookie',
  'idempotency-key',
  'x-hub-signature',
  'x-hub-signature-256',
  'x-gitlab-token',
  'webhook-signature',
  'svix-signature',
  'workos-signature',
];

/**
 * Route parameters whose values are logged: service ids (`pr_…`, `int_…`: ULIDs, they name no
 * person) and workspace ids (tenants). Any other parameter, or a value of another shape (a client
 * that puts an email where an id belongs), is logged as its name: a `:repository` path can start
 * with a person's GitHub login.
 */
const LOGGED_PARAMS: Readonly<Record<string, RegExp>> = {
  id: /^(pr|int|chg|tok|aud|sub)_[0-9A-HJKMNP-TV-Z]{26}$/,
  workspace_id: /^[\w.-]{1,200}$/,
};

/**
 * The path to log: the matched route's template with only {@link LOGGED_PARAMS} filled in, e.g.
 * `/api/v1/policies/workspaces/acme/repositories/:repository`; `(unmatched)` when no route
 * matched (the raw path of an unknown route can hold anything).
 */
function loggedPath(request: FastifyRequest): string {
  const template = request.routeOptions?.url;
  if (template === undefined) return '(unmatched)';
  const params = (request.params ?? {}) as Record<string, unknown>;
  return template.replace(/:(\w+)/g, (whole, name: string) => {
    const value = params[name];
    return typeof value === 'string' && LOGGED_PARAMS[name]?.test(value) ? value : whole;
  });
}

/** Request fields that are safe to log: no query string (it can name a workspace's data), no body, no headers. */
function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: loggedPath(request), id: request.id };
}

function serializeReply(reply: FastifyReply) {
  return { statusCode: reply.statusCode };
}

/** Errors keep type, code and stack only: driver messages can quote row values. */
function serializeError(error: unknown) {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, code, stack: error.stack?.split('\n').slice(1).join('\n') };
}

/**
 * pino options for the service: fields first, credentials redacted, no bodies logged.
 * Never log a token, secret, signature, email, name or subject id.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: SECRET_HEADERS.map((h) => `req.headers["${h}"]`), censor: '[redacted]' },
    serializers: { req: serializeRequest as never, res: serializeReply as never, err: serializeError },
  };
}

/** Routes polled by probes every few seconds: their request lines are logged at `debug`, not `info`. */
const QUIET_ROUTES = new Set(['/healthz']);

/**
 * Fastify's per-request log lines ("incoming request", "request completed"), with the probe
 * routes of {@link QUIET_ROUTES} at `debug`: a liveness probe every few seconds would otherwise
 * be most of an `info` log. Errors of those routes are still logged at `error`.
 */
export class ServiceLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (!QUIET_ROUTES.has(request.routeOptions.url ?? '')) return super.incomingRequest(request, reply);
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || !QUIET_ROUTES.has(request.routeOptions.url ?? '')) return super.requestCompleted(error, request, reply);
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
