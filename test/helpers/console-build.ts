/** The web console built once per test process, into a private folder (never the checkout's dist/). */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
let built: Promise<string> | undefined;

/**
 * Builds console/ with its own Vite config (`npm run build`'s second step) into a temporary
 * folder under .scratch/ and returns its path; later calls in the process reuse it.
 * @throws Error with Vite's output when the build fails (the bundle budget included).
 */
export function builtConsole(): Promise<string> {
  built ??= (async () => {
    const root = new URL('../../', import.meta.url).pathname;
    mkdirSync(join(root, '.scratch'), { recursive: true }); // a fresh checkout has none
    const out = mkdtempSync(join(root, '.scratch', 'console-build-'));
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
      {
        cwd: root,
      },
    );
    return out;
  })();
  return built;
}
