import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../errors/error-catalogue.js';
import type { ConsoleOidcConfig } from '../../config.js';
import { consoleCsp } from './console-csp.js';
import { consoleConfigRoute } from './console-config.route.js';

/** Where `npm run build` writes the console (`vite build --config console/vite.config.ts`). */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

/** Hashed build output (`assets/index-3f9a1c.js`): its name changes with its content. */
const HASHED_ASSET = /^\/console\/assets\//;

/** RFC 9111 §5.2.2: hashed assets never change (`immutable`, a year); the page is revalidated every time. */
function cacheControlFor(url: string): string {
  return HASHED_ASSET.test(url) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function consoleHeaders(app: FastifyInstance, csp: string): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('content-security-policy', csp);
    done();
  });
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    // A 304 carries the same directives as the 200 it stands for (RFC 9111 §4.3.4).
    if (reply.statusCode < 300 || reply.statusCode === 304) reply.header('cache-control', cacheControlFor(request.url));
    done(null, payload);
  });
}

/**
 * Serves the web console (PRODUCT.md §2b) from `dir` at `/console/` (`/console` redirects there
 * with 301, the service's root `/` with 302),
 * hidden from the OpenAPI document like `/docs`. Its pages carry {@link consoleCsp}; hashed
 * assets are cached for a year, `index.html` is revalidated. When the console is not built
 * (no `index.html` in `dir`), every `/console` URL answers 503 naming `npm run build`, and the
 * rest of the service runs as usual.
 *
 * `GET /console/config.json` tells the page how to sign in (see {@link consoleConfigRoute}).
 *
 * @param opts.dir - the built console, default {@link DEFAULT_CONSOLE_DIR}.
 * @param opts.oidc - console single sign-on (OIDC code flow with PKCE), default null (off).
 */
export async function consolePlugin(
  app: FastifyInstance,
  opts: { dir?: string; oidc?: ConsoleOidcConfig | null },
): Promise<void> {
  const dir = opts.dir ?? DEFAULT_CONSOLE_DIR;
  const oidc = opts.oidc ?? null;
  consoleHeaders(app, consoleCsp(oidc?.tokenUrl ?? null));
  consoleConfigRoute(app, oidc);
  // A newcomer opens http://HOST:PORT/ first: the console is the service's front page (302:
  // the root may become a page of its own one day, so browsers must not cache the redirect).
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/', 302));
  if (!existsSync(join(dir, 'index.html'))) {
    const notBuilt = async () => {
      throw errors.consoleNotBuilt();
    };
    app.get('/console', { schema: { hide: true } }, notBuilt);
    app.get('/console/*', { schema: { hide: true } }, notBuilt);
    return;
  }
  app.get('/console', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/', 301));
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/console/',
    index: 'index.html',
    cacheControl: false,
    etag: true,
    lastModified: true,
    decorateReply: false,
  });
}
