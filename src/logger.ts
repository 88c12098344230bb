import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** Request fields that are safe to log: no query string (it can name a workspace's data), no body, no headers. */
function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: request.url.split('?')[0], id: request.id };
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
