import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodeUtf8 } from '../../http/validation/json-body-parser.js';

/**
 * In the webhook routes' scope, every body is kept as raw bytes (`request.rawBody`): signatures
 * are computed over the exact bytes, and nothing is parsed before the delivery is authentic.
 */
export function registerRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, undefined);
  });
}

/** The raw body as text (strict UTF-8; invalid bytes are a 400). Empty when there was no body. */
export function rawText(request: FastifyRequest): string {
  return request.rawBody ? decodeUtf8(request.rawBody) : '';
}

/** Parses JSON, or returns undefined: used on authentic bodies (400 follows) and, for routing only, on unverified ones. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A plain JSON object, or undefined. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The single value of a header (the last, when repeated), or undefined. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.at(-1) : value;
}
