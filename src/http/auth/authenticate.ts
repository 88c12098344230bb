import type { FastifyInstance, FastifyRequest } from 'fastify';
import { coversWorkspace, type Principal } from '../../modules/principals/principal.js';
import { hasScope } from '../../modules/principals/scopes.js';
import type { TokenService } from '../../modules/tokens/token.service.js';
import { errors } from '../errors/error-catalogue.js';
import type { HttpError } from '../errors/http-error.js';
import type { OidcVerifier } from './oidc-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the auth hook on every `/api/v1` route. */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** The scope a route requires (PRODUCT.md §2.2); a list: any one of them. */
    scope?: string | readonly string[];
  }
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Registers the authentication hook on the enclosing plugin's routes: `Authorization: Bearer`
 * with an API token (`pcs_…`) or, when OIDC is configured, a JWT; then the route's scope.
 * Runs before the body is read, so an unauthenticated caller learns nothing of the schema.
 * Errors: 401 `Not authenticated` (no bearer token), 401 `Invalid authentication credentials`
 * (unknown, revoked or unverifiable), 403 (scope missing). Source: RFC 6750 §2.1, §3.
 */
export function registerAuthentication(app: FastifyInstance, deps: { tokens: TokenService; oidc: OidcVerifier | null }): void {
  app.decorateRequest('principal', null as unknown as Principal);
  // A callback hook: a token whose principal is cached (nearly every request) is admitted without
  // a promise; only a cache miss or an OIDC JWT waits for a lookup.
  app.addHook('onRequest', (request, _reply, done) => {
    const token = bearerToken(request);
    if (token === null) return done(errors.notAuthenticated());
    const cached = deps.tokens.cachedPrincipal(token);
    if (cached) return done(admit(request, cached));
    lookUp(deps, token)
      .then((principal) => admit(request, principal))
      .then(done, done);
  });
}

async function lookUp(deps: { tokens: TokenService; oidc: OidcVerifier | null }, token: string): Promise<Principal | null> {
  const principal = await deps.tokens.authenticate(token);
  if (!principal && deps.oidc && JWT_SHAPE.test(token)) return deps.oidc(token);
  return principal;
}

/** Sets `request.principal`, or returns the 401 (no principal) or 403 (scope missing) to answer. */
function admit(request: FastifyRequest, principal: Principal | null): HttpError | undefined {
  if (!principal) {
    request.log.debug({ reason: 'invalid_credentials' }, 'authentication failed');
    return errors.invalidCredentials();
  }
  // A token's id (`token:tok_…`) names no person; an OIDC principal's id carries the IdP's `sub`.
  request.log.debug({ principal: principal.id.startsWith('token:') ? principal.id : 'oidc' }, 'authenticated');
  const scope = request.routeOptions.config.scope;
  if (scope && !hasScope(principal.scopes, scope))
    return errors.missingScope(typeof scope === 'string' ? scope : scope.join(' or '));
  request.principal = principal;
  return undefined;
}

/** @throws HttpError 403 unless the caller may act in `workspaceId`. */
export function assertWorkspace(request: FastifyRequest, workspaceId: string): void {
  if (!coversWorkspace(request.principal, workspaceId)) throw errors.workspaceForbidden();
}

/**
 * The workspaces a list covers: the one named (403 unless the caller may read it), else every
 * workspace of the caller (`'*'` for all). The one way every list route scopes itself.
 * @throws HttpError 403 for a named workspace outside the caller's.
 */
export function listedWorkspaces(request: FastifyRequest, named: string | undefined): readonly string[] | '*' {
  if (named) {
    assertWorkspace(request, named);
    return [named];
  }
  const { workspaces } = request.principal;
  return workspaces === '*' ? '*' : [...workspaces];
}

/**
 * `found` when it exists in one of the caller's workspaces: outside them a resource does not exist
 * (no probing for ids of other workspaces).
 * @param what the resource as the 404 names it (`Integration`).
 * @throws HttpError 404 when `found` is absent or in another workspace.
 */
export function foundInWorkspace<T extends { workspace_id: string }>(
  request: FastifyRequest,
  found: T | null | undefined,
  what: string,
): T {
  if (!found || !coversWorkspace(request.principal, found.workspace_id)) throw errors.notFound(what);
  return found;
}
