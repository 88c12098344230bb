import type { FastifyInstance } from 'fastify';
import type { ConsoleOidcConfig } from '../../config.js';

/** What the console reads at `GET /console/config.json`: public values only, no secret. */
export interface ConsoleClientConfig {
  oidc: { client_id: string; authorization_endpoint: string; token_endpoint: string; scope: string } | null;
}

/**
 * The console's sign-in settings as JSON (PRODUCT.md §2b): the OIDC public client (client id,
 * authorization and token endpoints, scope; RFC 6749 §4.1 with RFC 7636 PKCE), or
 * `{"oidc": null}` when `OIDC_CONSOLE_CLIENT_ID` is unset. Answered even when the console is not
 * built; hidden from the OpenAPI document like the rest of `/console`; `no-cache` like the page
 * (the console plugin's hook), so a change of configuration is seen on the next load.
 */
export function consoleConfigRoute(app: FastifyInstance, oidc: ConsoleOidcConfig | null): void {
  const body: ConsoleClientConfig = {
    oidc: oidc && {
      client_id: oidc.clientId,
      authorization_endpoint: oidc.authorizationUrl,
      token_endpoint: oidc.tokenUrl,
      scope: oidc.scope,
    },
  };
  app.get('/console/config.json', { schema: { hide: true } }, async () => body);
}
