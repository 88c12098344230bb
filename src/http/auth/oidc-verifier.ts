import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { OidcConfig } from '../../config.js';
import type { Principal } from '../../modules/principals/principal.js';
import { errors } from '../errors/error-catalogue.js';

/** Verifies an OIDC access token (a JWT) and returns its principal, or null when it does not verify. */
export type OidcVerifier = (jwt: string) => Promise<Principal | null>;

function scopesOf(payload: Record<string, unknown>): Set<string> {
  const { scope, scp } = payload;
  if (typeof scope === 'string') return new Set(scope.split(' ').filter(Boolean));
  if (Array.isArray(scp)) return new Set(scp.filter((s): s is string => typeof s === 'string'));
  return new Set();
}

function workspacesOf(claim: unknown): Principal['workspaces'] {
  if (claim === '*') return '*';
  if (Array.isArray(claim)) {
    const ids = claim.filter((w): w is string => typeof w === 'string');
    return ids.includes('*') ? '*' : new Set(ids);
  }
  if (typeof claim === 'string') return new Set([claim]);
  return new Set();
}

/** Longest display name kept (the audit column holds 300). */
const NAME_MAX = 200;

/**
 * The operator's display name for the audit trail: the `nameClaim` claim, else `email`, else
 * `sub` (the first non-empty string, cut to {@link NAME_MAX} code points). An operator's own
 * name or e-mail, not a data subject's.
 */
function displayName(payload: Record<string, unknown>, nameClaim: string, sub: string): string {
  for (const claim of [nameClaim, 'email']) {
    const value = payload[claim];
    if (typeof value === 'string' && value.trim() !== '') return [...value.trim()].slice(0, NAME_MAX).join('');
  }
  return sub;
}

/**
 * True when the issuer's key set could not be had (timeout, network error, non-200, malformed
 * JWKS): the token may be good, so the answer is 503, not 401. Token faults are JOSEError
 * subclasses with their own codes; the bare JOSEError is what a failed JWKS fetch raises.
 */
function isKeySetUnavailable(error: unknown): boolean {
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) return true;
  if (!(error instanceof joseErrors.JOSEError)) return true;
  return error.code === 'ERR_JOSE_GENERIC';
}

/**
 * An OIDC verifier: signature against the issuer's JWKS (fetched and cached by jose, refetched
 * on an unknown `kid`), `iss`, `aud`, `exp`/`nbf` with 5 s of clock tolerance. Scopes come from
 * the `scope` claim (RFC 8693 §4.2, space-separated) or `scp` (array); workspaces from
 * `config.workspacesClaim`. Source: RFC 9068 (JWT access tokens), RFC 7519.
 * The verifier throws HttpError 503 when the key set cannot be fetched; it returns null for a bad token.
 */
export function createOidcVerifier(config: OidcConfig): OidcVerifier {
  const jwks = createRemoteJWKSet(new URL(config.jwksUrl), { timeoutDuration: 5000 });
  return async (jwt) => {
    try {
      const { payload } = await jwtVerify(jwt, jwks, { issuer: config.issuer, audience: config.audience, clockTolerance: 5 });
      if (typeof payload.sub !== 'string' || payload.sub === '') return null;
      return {
        id: `oidc:${payload.sub}`,
        name: displayName(payload, config.nameClaim, payload.sub),
        scopes: scopesOf(payload),
        workspaces: workspacesOf(payload[config.workspacesClaim]),
      };
    } catch (error) {
      if (isKeySetUnavailable(error)) throw errors.unavailable();
      return null;
    }
  };
}
