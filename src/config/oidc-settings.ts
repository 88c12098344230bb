/** The OpenID Connect settings (`OIDC_*`): bearer-token verification and the console's sign-in. */
import type { Env } from './env-readers.js';

/** OIDC bearer-token verification settings (PRODUCT.md §2.2). */
export interface OidcConfig {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: string;
  /** Claim holding the token's workspaces (array of ids, or `"*"`). Default `workspaces`. */
  readonly workspacesClaim: string;
  /**
   * Claim holding the operator's display name, recorded in the audit trail (`OIDC_NAME_CLAIM`,
   * default `name`); when the token lacks it, `email`, then `sub`.
   */
  readonly nameClaim: string;
  /** Console single sign-on (`OIDC_CONSOLE_CLIENT_ID`), or null when the console offers only pasted tokens. */
  readonly console: ConsoleOidcConfig | null;
}

/**
 * The console's OpenID Connect sign-in (PRODUCT.md §2b): a public client using the
 * authorization-code flow with PKCE (RFC 7636, S256). None of it is secret: the console reads it
 * at `GET /console/config.json`.
 */
export interface ConsoleOidcConfig {
  /** `OIDC_CONSOLE_CLIENT_ID`: the console's client id at the identity provider. */
  readonly clientId: string;
  /** `OIDC_AUTHORIZATION_URL`: the provider's authorization endpoint (absolute http(s) URL). */
  readonly authorizationUrl: string;
  /** `OIDC_TOKEN_URL`: the provider's token endpoint (absolute http(s) URL). */
  readonly tokenUrl: string;
  /** `OIDC_CONSOLE_SCOPE`: the space-separated scopes asked for, default `openid`. */
  readonly scope: string;
}

/**
 * `OIDC_ISSUER`, `OIDC_AUDIENCE`, `OIDC_JWKS_URL` (all three or none) and the claims; null when
 * OIDC is off. Bad or incomplete values are added to `problems`.
 */
export function readOidc(env: Env, problems: string[]): OidcConfig | null {
  const issuer = env.OIDC_ISSUER ?? '';
  const audience = env.OIDC_AUDIENCE ?? '';
  const jwksUrl = env.OIDC_JWKS_URL ?? '';
  const set = [issuer, audience, jwksUrl].filter((v) => v !== '').length;
  if (set === 0) {
    if (env.OIDC_CONSOLE_CLIENT_ID) problems.push('OIDC_CONSOLE_CLIENT_ID needs OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL');
    return null;
  }
  if (set < 3) {
    problems.push('OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL must be set together');
    return null;
  }
  if (!URL.canParse(jwksUrl)) problems.push('OIDC_JWKS_URL must be a URL');
  return {
    issuer,
    audience,
    jwksUrl,
    workspacesClaim: env.OIDC_WORKSPACES_CLAIM || 'workspaces',
    nameClaim: env.OIDC_NAME_CLAIM || 'name',
    console: readConsoleOidc(env, problems),
  };
}

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/** `OIDC_CONSOLE_CLIENT_ID` and the two endpoints it needs; null when the client id is unset. */
function readConsoleOidc(env: Env, problems: string[]): ConsoleOidcConfig | null {
  const clientId = env.OIDC_CONSOLE_CLIENT_ID ?? '';
  const authorizationUrl = env.OIDC_AUTHORIZATION_URL ?? '';
  const tokenUrl = env.OIDC_TOKEN_URL ?? '';
  if (clientId === '') {
    if (authorizationUrl !== '' || tokenUrl !== '')
      problems.push('OIDC_AUTHORIZATION_URL and OIDC_TOKEN_URL are used only with OIDC_CONSOLE_CLIENT_ID');
    return null;
  }
  if (!isHttpUrl(authorizationUrl))
    problems.push('OIDC_AUTHORIZATION_URL must be an http(s) URL when OIDC_CONSOLE_CLIENT_ID is set');
  if (!isHttpUrl(tokenUrl)) problems.push('OIDC_TOKEN_URL must be an http(s) URL when OIDC_CONSOLE_CLIENT_ID is set');
  const scope = (env.OIDC_CONSOLE_SCOPE || 'openid').trim();
  return { clientId, authorizationUrl, tokenUrl, scope };
}
