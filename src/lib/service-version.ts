import { readFileSync } from 'node:fs';

/**
 * The service's version, from package.json (two folders up from src/lib and from dist/lib alike):
 * named in the `user-agent` of outbound deliveries (PRODUCT §2.8). `unknown` when that file
 * names none (a test's private build).
 */
export const SERVICE_VERSION: string =
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';

/** `user-agent` of every outbound delivery: `privacy-request-service/<version>`. */
export const USER_AGENT = `privacy-request-service/${SERVICE_VERSION}`;
