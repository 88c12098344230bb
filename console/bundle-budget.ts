import { gzipSync } from 'node:zlib';

/** The console's JavaScript may weigh at most this much, gzipped (issue 15): bytes. */
export const CONSOLE_JS_BUDGET_BYTES = 150 * 1024;

/**
 * Gzipped size (level 9, as a server would send it) of every JavaScript chunk, summed: bytes.
 * @param chunks - the code of each emitted `.js` file.
 */
export function gzippedJsBytes(chunks: Iterable<string | Uint8Array>): number {
  let total = 0;
  for (const code of chunks) total += gzipSync(code, { level: 9 }).length;
  return total;
}
