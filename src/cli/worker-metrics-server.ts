import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { bearerMatches } from '../lib/bearer-match.js';

/** A listening metrics endpoint: where, and how to stop it. */
export interface MetricsEndpoint {
  /** `http://HOST:PORT/metrics`, with the port actually bound (for port 0). */
  readonly url: string;
  /** Stops listening and drops open (keep-alive) connections. */
  close(): Promise<void>;
}

/**
 * `privacyctl worker`'s own Prometheus endpoint (the worker has no other HTTP server):
 * `GET /metrics` (and `HEAD`) answers `registry` in the text format; any other path 404, any
 * other method on `/metrics` 405; with `token` (`METRICS_TOKEN`), a request without
 * `Authorization: Bearer <token>` gets 401. Reads no body and serves nothing else.
 *
 * @param port - 0 lets the system pick a free port (see `url`).
 * @param token - the bearer token `/metrics` requires, or null for none.
 * @throws Error naming the address when it cannot listen (port in use, not permitted).
 */
export async function startMetricsServer(
  registry: Registry,
  host: string,
  port: number,
  token: string | null = null,
): Promise<MetricsEndpoint> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const status = path !== '/metrics' ? 404 : request.method === 'GET' || request.method === 'HEAD' ? 200 : 405;
    if (status === 200 && token !== null && !bearerMatches(request.headers.authorization, token)) {
      response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      response.end(JSON.stringify({ detail: 'Not authenticated' }));
      return;
    }
    if (status !== 200) {
      response.writeHead(status, { 'content-type': 'text/plain', ...(status === 405 ? { allow: 'GET, HEAD' } : {}) });
      response.end(status === 404 ? 'Not Found\n' : 'Method Not Allowed\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      () => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`cannot serve worker metrics on ${host}:${port} (${error.code ?? error.message})`)),
    );
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
