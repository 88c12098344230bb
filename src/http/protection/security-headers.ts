import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of the Swagger UI pages under `/docs`: its scripts, styles and
 * fonts come from the same origin, its images are same-origin or `data:` URIs, it fetches the
 * OpenAPI document from the same origin; Swagger UI sets inline `style` attributes, hence
 * `'unsafe-inline'` for styles only. No inline or remote script runs. (W3C CSP Level 3.)
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** The helmet configuration of the JSON API (see {@link registerSecurityHeaders}). */
const apiHelmet = () =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
  });

/**
 * The headers helmet's middleware sets, recorded once by running it against a stand-in response:
 * with this configuration they are the same for every request (no nonce). Names lowercased, as
 * Fastify stores reply headers. helmet's other act, removing `X-Powered-By`, is moot: neither
 * Node nor Fastify sets that header.
 *
 * @throws Error if helmet reports an error or sets nothing.
 */
export function helmetHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  apiHelmet()({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
  });
  if (Object.keys(headers).length === 0) throw new Error('helmet set no headers');
  return Object.freeze(headers);
}

let recorded: Readonly<Record<string, string>> | undefined;

/**
 * {@link helmetHeaders}, recorded on first use and shared: also for answers written before any
 * hook runs (Fastify's framework errors, connection-level 408/431 in timeouts.ts).
 */
export function apiSecurityHeaders(): Readonly<Record<string, string>> {
  recorded ??= helmetHeaders();
  return recorded;
}

/**
 * Security headers for a JSON API (helmet, OWASP Secure Headers Project): a CSP that lets a
 * response load nothing and be framed nowhere (`default-src 'none'; frame-ancestors 'none'`),
 * `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`,
 * HSTS (one year; browsers honour it over HTTPS only), same-origin COOP/CORP, no
 * `X-Powered-By`. `/docs` replaces the CSP with {@link DOCS_CSP} (see app.ts).
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // helmet's output is computed once (helmetHeaders) and copied into Fastify's reply headers:
  // running helmet per request set each header on the raw response (Node's setHeader, and then
  // Fastify's writeHead re-set its own headers one by one), which cost more than answering /healthz.
  const headers = apiSecurityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * `Cache-Control: no-store` on every response of the enclosing scope (the `/api/v1` routes carry
 * personal data: privacy requests, results, change events; RFC 9111 §5.2.2.5). A route may
 * set its own value (the effective policy answers `no-cache` with an ETag, for revalidation).
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store');
    done();
  });
}
