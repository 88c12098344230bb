import { existsSync } from 'node:fs';

/**
 * The `node` arguments that run the helper script `tsFile` (a `.ts` path) in a child process the way
 * this test itself runs: the compiled `.js` beside it when `npm test` runs the files from the
 * compiled mirror (scripts/test-mirror.mjs; no loader to start, ≈ 1.8 s of CPU saved per child),
 * else through tsx (a file run by hand with `node --import tsx --test`).
 */
export function scriptArgs(tsFile: string): string[] {
  const js = tsFile.replace(/\.ts$/, '.js');
  return import.meta.url.endsWith('.js') && existsSync(js) ? [js] : ['--import', 'tsx', tsFile];
}
