import type { FastifyRequest } from 'fastify';
import { RequestValidationError } from '../errors/http-error.js';
import { type ErrorItem, pydanticError } from './error-item.js';
import { atTime } from './named-checks.js';
import { validateValue } from './validate-value.js';
import type { Schema } from './value-schema.js';

/** The parts of a route schema the validator reads, as Fastify stores them. */
export interface RouteSchemas {
  params?: Schema;
  querystring?: Schema;
  headers?: Schema;
  body?: Schema;
}

/** Starlette keeps the last of repeated query keys; Node joins repeated headers. One string each. */
function lastValue(value: unknown): unknown {
  return Array.isArray(value) ? value.at(-1) : value;
}

/**
 * A parameter's raw value: every value of a repeated key for a list parameter (FastAPI's
 * `list[str] = Query()`, a single occurrence is a list of one), else the last one.
 */
function rawValue(schema: Schema, value: unknown): unknown {
  if (schema.type !== 'array' || value === undefined) return lastValue(value);
  return Array.isArray(value) ? value : [value];
}

function validateParameters(
  schema: Schema | undefined,
  source: unknown,
  location: 'path' | 'query' | 'header',
  errors: ErrorItem[],
) {
  if (!schema?.properties) return source;
  const values = (source ?? {}) as Record<string, unknown>;
  const required = schema.required ?? [];
  const out: Record<string, unknown> = { ...values };
  for (const [name, fieldSchema] of Object.entries(schema.properties)) {
    const raw = rawValue(fieldSchema, values[name]);
    if (raw === undefined) {
      if (required.includes(name)) errors.push(pydanticError.missing([location, name], null));
      else out[name] = fieldSchema.default;
      continue;
    }
    out[name] = validateValue(fieldSchema, raw, [location, name], 'lax', errors);
  }
  return out;
}

function validateBody(schema: Schema | undefined, body: unknown, errors: ErrorItem[]) {
  if (!schema) return body;
  // FastAPI treats an absent body and a JSON `null` alike: the required body is missing, unless
  // the route declares it optional (`body: X | None = None`; our schema's `x-optional-body`).
  if ((body === undefined || body === null) && (schema as { 'x-optional-body'?: boolean })['x-optional-body'] === true) return {};
  if (body === undefined || body === null) {
    errors.push(pydanticError.missing(['body'], null));
    return body;
  }
  return validateValue(schema, body, ['body'], 'strict', errors);
}

/**
 * Validates a request's path, query, headers and body against its route schemas, collecting every
 * error in FastAPI's order (path, query, header, then body), and replaces each part with its
 * validated value.
 *
 * Checks that compare with the time (`received_at`) use `now` (ms; the service clock).
 * @throws RequestValidationError (422, FastAPI's `{"detail":[…]}`) when anything fails.
 */
export function validateRequest(request: FastifyRequest, schemas: RouteSchemas | undefined, now: number = Date.now()): void {
  if (!schemas) return;
  atTime(now, () => validateParts(request, schemas));
}

/** Each request's body as it arrived, before validation replaced it (see {@link sentBody}). */
const sentBodies = new WeakMap<FastifyRequest, unknown>();

/**
 * The request's body as the client sent it (parsed JSON, unknown fields and their order kept):
 * what a rule across the whole body echoes as `input` at `["body"]`, as Pydantic's
 * `model_validator` does. The validated body when the route has no body schema.
 */
export function sentBody(request: FastifyRequest): unknown {
  return sentBodies.has(request) ? sentBodies.get(request) : request.body;
}

function validateParts(request: FastifyRequest, schemas: RouteSchemas): void {
  const errors: ErrorItem[] = [];
  const params = validateParameters(schemas.params, request.params, 'path', errors);
  const query = validateParameters(schemas.querystring, request.query, 'query', errors);
  validateParameters(schemas.headers, request.headers, 'header', errors);
  const body = validateBody(schemas.body, request.body, errors);
  if (errors.length > 0) throw new RequestValidationError(errors);
  request.params = params;
  request.query = query;
  if (schemas.body) sentBodies.set(request, request.body);
  request.body = body;
}
