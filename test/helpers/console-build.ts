/** The web console built once per test process, into a private folder (never the checkout's dist/). */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
let built: Promise<string> | undefined;

/**
 * Builds console/ with its own Vite config (`npm run build`'s second step) into `out`.
 * @throws Error with Vite's output when the build fails (the bundle budget included).
 */
export async function buildConsoleInto(out: string): Promise<void> {
  await run(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'console/vite.config.ts',
      '--outDir',
      out,
      '--emptyOutDir',
    ],
    { cwd: root },
  );
}

/**
 * The built console's folder: the one `npm test` built once for the whole run
 * (`TEST_CONSOLE_BUILD`, scripts/run-tests.mjs), or else a build of this process's own into a
 * temporary folder under .scratch/; later calls in the process reuse it. Tests only read it.
 * @throws Error with Vite's output when the build fails (the bundle budget included).
 */
export function builtConsole(): Promise<string> {
  built ??= (async () => {
    const shared = process.env.TEST_CONSOLE_BUILD;
    if (shared) return shared;
    mkdirSync(join(root, '.scratch'), { recursive: true }); // a fresh checkout has none
    const out = mkdtempSync(join(root, '.scratch', 'console-build-'));
    await buildConsoleInto(out);
    return out;
  })();
  return built;
}
