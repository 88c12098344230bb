import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What a privacyctl run printed and how it exited. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A privately built privacyctl: run it, and remove it when done. */
export interface BuiltCli {
  /** The built `bin/privacyctl.js`, for tests that spawn long-running commands themselves. */
  bin: string;
  /** Runs `node bin/privacyctl.js …args` with `env` over the test's environment, `input` on stdin. */
  run(env: Record<string, string>, args: string[], input?: string): CliResult;
  remove(): void;
}

/**
 * Compiles src/ (tsconfig.build.json) into a temporary folder laid out like the package
 * (`bin/privacyctl.js`, `dist/`, a `package.json` for ESM, a link to node_modules), so a test
 * file runs the real bin script without racing another one that rebuilds the project's `dist/`.
 *
 * @throws AssertionError with the compiler output when the build fails.
 */
export function buildPrivacyctl(): BuiltCli {
  const shared = process.env.TEST_PRIVACYCTL_BUILD;
  if (shared) return builtAt(shared, () => {});
  const dir = mkdtempSync(join(tmpdir(), 'privacyctl-build-'));
  layOut(dir);
  return builtAt(dir, () => rmSync(dir, { recursive: true, force: true }));
}

/**
 * Compiles src/ into `dir` laid out like the package (see buildPrivacyctl). `npm test`
 * (scripts/run-tests.mjs) does it once per run and passes the folder to every test file in
 * `TEST_PRIVACYCTL_BUILD`, which only read it: one compile instead of one per file.
 */
export function layOut(dir: string): void {
  const compiled = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', join(dir, 'dist')], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(compiled.status, 0, `build failed:\n${compiled.stdout}${compiled.stderr}`);
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, 'bin', 'privacyctl.js'), join(dir, 'bin', 'privacyctl.js'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

function builtAt(dir: string, remove: () => void): BuiltCli {
  const bin = join(dir, 'bin', 'privacyctl.js');
  return {
    bin,
    run(env, args, input = '') {
      const result = spawnSync(process.execPath, [bin, ...args], {
        cwd: root,
        input,
        encoding: 'utf8',
        env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    remove,
  };
}

/** `words('integration add --kind github', secret)` → argv: the first string split on spaces, the rest as they are. */
export function words(text: string, ...rest: string[]): string[] {
  return [...text.split(' ').filter((w) => w !== ''), ...rest];
}
