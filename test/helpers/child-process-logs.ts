/**
 * Long-running privacyctl commands (`serve`, `worker`) as real child processes whose stdout and
 * stderr are kept whole, for tests that read what the processes log.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';

/** A running privacyctl process and everything it has printed so far. */
export interface LoggedProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `ms`). @returns the exit code. */
  stop(ms?: number): Promise<number | null>;
}

/** Starts `node <bin> …args` with `env` over the test's environment, capturing both streams. */
export function startLogged(bin: string, args: string[], env: Record<string, string>): LoggedProcess {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async stop(ms = 20_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Waits until `serve` logs Fastify's "Server listening at http://HOST:PORT" line.
 * @returns the base URL. @throws when the process exits first or nothing comes within `ms`.
 */
export async function listeningUrl(p: LoggedProcess, ms = 60_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(p.stdout());
    if (match?.[1]) return match[1];
    if (p.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return assert.fail(`serve did not start:\n${p.stdout()}\n${p.stderr()}`);
}
