import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiSecurityHeaders } from '../protection/security-headers.js';
import { databaseFailure } from '../../db/errors.js';
import { encodeLikeFastApi } from '../validation/error-item.js';
import { cutInput } from '../validation/input-cut.js';
import { fromDomainError } from './domain-errors.js';
import { errors } from './error-catalogue.js';
import { HttpError, RequestValidationError } from './http-error.js';

/** Fastify's own error codes that map onto a client error of ours. */
const FASTIFY_CODES: Record<string, () => HttpError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: errors.bodyTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errors.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: errors.contentLengthMismatch,
  FST_ERR_CTP_EMPTY_JSON_BODY: errors.emptyJsonBody,
};

/**
 * A client error raised by Fastify or one of its plugins with its own 4xx status (e.g.
 * @fastify/send's 403 for a `..` that climbs out of /docs' static folder): answered with that
 * status and its standard reason phrase, never as a 500.
 */
function pluginClientError(error: unknown): HttpError | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  return errors.pluginClientError(status);
}

/**
 * The catalogue's answer to a thrown error (its own, a domain error, a Fastify or plugin 4xx, a
 * database that cannot answer), or null for an unexpected one (a 500). The DRP scope words the
 * same statuses in DRP's error body (src/http/drp/drp.plugin.ts).
 */
export function knownHttpError(error: unknown): HttpError | RequestValidationError | null {
  if (error instanceof HttpError || error instanceof RequestValidationError) return error;
  const domain = fromDomainError(error);
  if (domain) return domain;
  const code = (error as FastifyError | null)?.code;
  const mapped = code ? FASTIFY_CODES[code] : undefined;
  if (mapped) return mapped();
  const clientError = pluginClientError(error);
  if (clientError) return clientError;
  const failure = databaseFailure(error);
  if (failure === 'unreachable') return errors.unavailable();
  if (failure === 'storage') return errors.storageUnavailable();
  return null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A 422's `input` on this route is cut to this many UTF-8 bytes (PRODUCT §2.17: 1 KiB where a dataset is taken). */
    errorInputBytes?: number;
  }
}

function send(reply: FastifyReply, error: HttpError | RequestValidationError) {
  if (error instanceof RequestValidationError) {
    const max = reply.request?.routeOptions?.config?.errorInputBytes;
    const input = (value: unknown) => (max === undefined ? encodeLikeFastApi(value) : cutInput(encodeLikeFastApi(value), max));
    return reply.code(422).send({ detail: error.errors.map((e) => ({ ...e, input: input(e.input) })) });
  }
  return reply.code(error.statusCode).headers(error.headers).send({ detail: error.detail });
}

/**
 * Fastify's `frameworkErrors` option: a URL the router cannot decode (`%ff`) or whose path
 * segment exceeds `maxParamLength` is answered before any hook runs, so the security headers are
 * set here, and the body has the API's `{"detail"}` shape instead of Fastify's own.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(apiSecurityHeaders());
  void send(reply, error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.pathSegmentTooLong() : errors.malformedUrl());
}

/**
 * While the server drains after SIGTERM (`app.close()`), a request that still arrives on an open
 * keep-alive connection gets the API's 503 (`{"detail"}`, `Retry-After`) and `Connection: close`.
 * Needs Fastify's own closing 503 (`return503OnClosing`, another body shape and no Retry-After) off.
 */
function registerClosingGuard(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook, not async: it runs on every request, and a promise per request costs more than the check.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('Connection', 'close');
    done(errors.unavailable());
  });
}

/**
 * The one error handler: known errors become `{"detail": …}` with their status; anything else is
 * logged (type and stack only: driver messages can quote data) and answered as a bare 500.
 * While the server closes, new requests are answered 503 (see registerClosingGuard).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const known = knownHttpError(error);
    if (known) {
      if (known.statusCode >= 500) request.log.warn({ err: error }, 'request failed: dependency unavailable');
      return send(reply, known);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, errors.internal());
  });
  app.setNotFoundHandler((_request, reply) => send(reply, errors.routeNotFound()));
  registerClosingGuard(app);
}
