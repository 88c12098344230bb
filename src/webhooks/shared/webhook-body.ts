import type { FastifyInstance, FastifyRequest } from 'fastify';

// Keeps a leading BOM: the text must re-encode to exactly the bytes that were signed.
const exactUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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

/**
 * The raw body as text that re-encodes to the same bytes (strict UTF-8, BOM kept); empty without
 * a body; undefined when the bytes are not UTF-8 (such a body cannot be verified as text).
 */
export function rawText(request: FastifyRequest): string | undefined {
  if (!request.rawBody) return '';
  try {
    return exactUtf8.decode(request.rawBody);
  } catch {
    return undefined;
  }
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
