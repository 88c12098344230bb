// Single sign-on (PRODUCT.md §2b): the OpenID Connect authorization-code flow for a public client
// with PKCE (RFC 6749 §4.1, RFC 7636 S256). The verifier and the state live in this tab's
// sessionStorage between the redirect and the return, and are removed on the return.

/** The public client the service describes at `/console/config.json` (no secret). */
export interface OidcClient {
  client_id: string;
  authorization_endpoint: string;
  token_endpoint: string;
  scope: string;
}

const PENDING_KEY = 'privacy-console.oidc-pending';

/** The service's sign-in settings: the OIDC client, or null when only pasted tokens are offered. */
export async function loadOidcClient(): Promise<OidcClient | null> {
  const response = await fetch('/console/config.json', { credentials: 'omit', cache: 'no-store' });
  if (!response.ok) return null;
  return ((await response.json()) as { oidc: OidcClient | null }).oidc;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `bytes` random bytes, base64url: 48 bytes give 64 characters of the RFC 7636 §4.1 alphabet. */
const randomString = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** The console's own address, registered at the provider as the redirect URI. */
export const redirectUri = () => `${location.origin}/console/`;

/** Saves a fresh verifier and state, then leaves for the provider's authorization endpoint. */
export async function startSignIn(client: OidcClient): Promise<void> {
  const verifier = randomString(48);
  const state = randomString(16);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state }));
  const url = new URL(client.authorization_endpoint);
  const params = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri(),
    scope: client.scope,
    state,
    code_challenge: await s256(verifier),
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  location.assign(url.toString());
}

/** The query of a return from the provider (`code` or `error`), or null when this page load is not one. */
export function returnedParams(): URLSearchParams | null {
  const params = new URLSearchParams(location.search);
  return params.has('code') || params.has('error') ? params : null;
}

/** Removes the provider's answer from the address bar and history (the code is single-use, but not for show). */
function clearReturn(): void {
  history.replaceState(null, '', `/console/${location.hash}`);
}

async function exchange(client: OidcClient, code: string, verifier: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(client.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri(),
        client_id: client.client_id,
        code_verifier: verifier,
      }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new Error('The identity provider’s token endpoint could not be reached (network or CORS). Try again.');
  }
  const body = (await response.json().catch(() => null)) as { access_token?: unknown; error?: unknown } | null;
  if (!response.ok || typeof body?.access_token !== 'string') {
    const reason = typeof body?.error === 'string' ? `: ${body.error}` : '';
    throw new Error(`The identity provider refused to issue a token (${response.status}${reason}). Sign in again.`);
  }
  return body.access_token;
}

/**
 * Completes a return from the provider: checks `state` against the one this tab sent, exchanges
 * the code with the saved verifier, and returns the access token. The URL and the saved
 * verifier are cleared whatever happens.
 * @throws Error with the sentence to show (the provider's error, a state mismatch, a refused exchange).
 */
export async function finishSignIn(client: OidcClient, params: URLSearchParams): Promise<string> {
  const saved = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  clearReturn();
  const error = params.get('error');
  if (error) throw new Error(`The identity provider did not sign you in (${error}). Try again.`);
  const pending = saved ? (JSON.parse(saved) as { verifier: string; state: string }) : null;
  if (!pending || params.get('state') !== pending.state)
    throw new Error(
      'The sign-in answer does not match the one this tab asked for (state mismatch); nothing was kept. Sign in again.',
    );
  return exchange(client, params.get('code') ?? '', pending.verifier);
}
