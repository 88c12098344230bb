import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors/error-catalogue.js';
import { RequestValidationError } from '../errors/http-error.js';
import { jsonNestingExceeds } from '../protection/json-depth.js';
import { pydanticError } from './error-item.js';
import { parseJsonLikePython } from './python-json.js';

// Strips one leading BOM, as Python's json.loads(bytes) does (utf-8-sig detection).
const utf8 = new TextDecoder('utf-8', { fatal: true });

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, for signature checks over raw bytes. Undefined without a body. */
    rawBody?: Buffer;
  }
}

/** Decodes UTF-8 strictly; invalid bytes are a 400, as Starlette's `request.json()` fails in FastAPI. */
export function decodeUtf8(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw errors.bodyNotParsable();
  }
}

function parseJsonBody(request: FastifyRequest, raw: Buffer): unknown {
  request.rawBody = raw;
  if (raw.length === 0) return undefined;
  const text = decodeUtf8(raw);
  // Past CPython's recursion limit json.loads fails and FastAPI answers 400 (json-depth.ts).
  if (jsonNestingExceeds(text)) throw errors.bodyNotParsable();
  const result = parseJsonLikePython(text, { markFloats: true });
  if (!result.ok) throw new RequestValidationError([pydanticError.jsonInvalid(result.pos, result.msg)]);
  return result.value;
}

/**
 * Replaces Fastify's JSON parser: keeps the raw bytes on `request.rawBody`, parses as CPython's
 * `json.loads` does, and reports malformed JSON as FastAPI's `json_invalid` 422 (position in code
 * points, CPython's message). An empty body parses to `undefined` (the body is then "missing").
 * Applies to `application/json` and any `application/*+json` type.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  for (const type of ['application/json', /^application\/[\w.+-]+\+json$/]) {
    app.addContentTypeParser(type, { parseAs: 'buffer' }, (request, body, done) => {
      try {
        done(null, parseJsonBody(request, body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  }
  // As FastAPI: a body without Content-Type is parsed as JSON; a body of any other type is
  // handed to validation as text, where a model refuses it (`model_attributes_type`).
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      if (request.headers['content-type'] === undefined) return done(null, parseJsonBody(request, body as Buffer));
      request.rawBody = body as Buffer;
      done(null, (body as Buffer).length === 0 ? undefined : decodeUtf8(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
