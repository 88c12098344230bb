import type { FastifyInstance } from 'fastify';
import { PUBLIC_BODY_LIMIT } from './center-public.routes.js';

/** A form's fields: a field sent more than once (the opt-out form's `kinds`) holds every value, in order. */
export type FormFields = Record<string, string | string[]>;

/** The fields of an `application/x-www-form-urlencoded` body. */
function formFields(body: string): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const had = fields[name];
    fields[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return fields;
}

/**
 * Adds the center pages' parser of `application/x-www-form-urlencoded` bodies (at most
 * `PUBLIC_BODY_LIMIT` bytes) to `app`: a body becomes its {@link FormFields}. It covers the routes
 * `app` has and the plugins registered on it afterwards.
 */
export function addFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: PUBLIC_BODY_LIMIT },
    (_req, body, done) => {
      done(null, formFields(body as string));
    },
  );
}

/**
 * A field's value (the last, when sent more than once), '' when absent. As text whatever was
 * posted: a JSON body reaches these routes as it was parsed.
 */
export function field(fields: FormFields, name: string): string {
  const value: unknown = fields[name];
  if (Array.isArray(value)) return String(value.at(-1) ?? '');
  return value === undefined || value === null ? '' : String(value);
}

/** Every value of a field, in order, as text. */
export function fieldValues(fields: FormFields, name: string): string[] {
  const value: unknown = fields[name];
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}
