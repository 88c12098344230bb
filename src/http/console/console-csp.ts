import { LETTER_STYLE_SOURCE } from '../letters/letter-style.js';

/**
 * The Content-Security-Policy of the console's pages (PRODUCT.md §2b; W3C CSP Level 3): scripts,
 * styles, images and fonts from the service's own origin only, no inline script or style
 * attribute, API calls to the same origin only, never framed. The one hashed style is the
 * readable letter's `<style>` element: the console opens a letter as a `blob:` document, which
 * inherits this policy (CSP3 §7.8), so the letter keeps its look and still runs nothing.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  `style-src 'self' ${LETTER_STYLE_SOURCE}`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * {@link CONSOLE_CSP}, with `connect-src` widened to the origin of the identity provider's token
 * endpoint when the console signs in with OpenID Connect (the code exchange is a `fetch` there;
 * the authorization request is a top-level navigation, which CSP does not restrict).
 *
 * @param tokenUrl - the token endpoint (absolute URL), or null when console sign-in is off.
 */
export function consoleCsp(tokenUrl: string | null): string {
  if (tokenUrl === null) return CONSOLE_CSP;
  return CONSOLE_CSP.replace("connect-src 'self'", `connect-src 'self' ${new URL(tokenUrl).origin}`);
}
