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

/**
 * Security headers for a JSON API (helmet, OWASP Secure Headers Project): a CSP that lets a
 * response load nothing and be framed nowhere (`default-src 'none'; frame-ancestors 'none'`),
 * `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`,
 * HSTS (one year; browsers honour it over HTTPS only), same-origin COOP/CORP, no
 * `X-Powered-By`. `/docs` replaces the CSP with {@link DOCS_CSP} (see app.ts).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // helmet's middleware is built once here; @fastify/helmet rebuilt it (re-parsing the CSP) on
  // every request, which cost more than answering /healthz.
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}

/**
 * `Cache-Control: no-store` on every response of the enclosing scope (the `/api/v1` routes carry
 * personal data: privacy requests, results, change events; RFC 9111 §5.2.2.5). A route may
 * set its own value (the effective policy answers `no-cache` with an ETag, for revalidation).
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
}
