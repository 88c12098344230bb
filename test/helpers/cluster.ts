/**
 * Real `privacyctl serve` and `privacyctl worker` processes on one database, for scale-out tests:
 * start them on free ports, wait until they answer, talk to them over real HTTP, stop or kill
 * them, and never leave one behind (every child is SIGKILLed when the test process exits).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port.js';

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** A started child process and the tail of what it wrote on stderr (for failure messages). */
export interface Proc {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  stderr(): string;
}

/** What one HTTP call answered: status, lower-case headers, and the body text. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A `serve` process and its base URL (`http://127.0.0.1:PORT`). */
export interface Server extends Proc {
  readonly url: string;
}

/** Spawns `node bin …args` with `env` over this process's environment, tracked for clean-up. */
export function spawnCli(bin: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  assert.ok(child.pid, `could not start privacyctl ${args.join(' ')}`);
  children.add(child);
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
  });
  return { child, pid: child.pid, exited, stderr: () => tail };
}

/** One HTTP call with a JSON or text body. Never throws for an HTTP status. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Record<string, unknown>,
): Promise<HttpAnswer> {
  const text = typeof body === 'string' || body === undefined ? body : JSON.stringify(body);
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(typeof body === 'object' ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(text === undefined ? {} : { body: text }),
  });
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: await res.text() };
}

/** Polls `check` every 50 ms until it holds. @throws AssertionError with `what` after `ms`. */
export async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts `privacyctl serve` on a free port with `env` (add `WORKER_IN_SERVER=false` for an
 * API-only process) and resolves once `GET /readyz` answers 200.
 *
 * @throws AssertionError with the process's stderr when it exits or never becomes ready.
 */
export async function startServer(bin: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const proc = spawnCli(bin, ['serve'], { ...env, HOST: '127.0.0.1', PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  let exit: number | string | undefined;
  void proc.exited.then((code) => (exit = code));
  await waitFor(`serve on port ${port}`, async () => {
    if (exit !== undefined) assert.fail(`serve exited with ${exit}: ${proc.stderr()}`);
    return (await call(url, 'GET', '/readyz')).status === 200;
  });
  return { ...proc, url };
}

/**
 * Starts `privacyctl worker` with its own `/metrics` on a free port and resolves once that answers
 * 200: the worker has migrated, opened its services and is about to claim work, and its SIGTERM
 * handler is in place (a signal that arrives while Node is still loading the CLI would end it
 * with the signal's default action instead of a clean exit 0).
 *
 * @throws AssertionError with the process's stderr when it exits or never becomes ready.
 */
export async function startWorkerProcess(bin: string, env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const proc = spawnCli(bin, ['worker'], { ...env, HOST: '127.0.0.1', WORKER_METRICS_PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  let exit: number | string | undefined;
  void proc.exited.then((code) => (exit = code));
  await waitFor(`worker metrics on port ${port}`, async () => {
    if (exit !== undefined) assert.fail(`worker exited with ${exit}: ${proc.stderr()}`);
    return (await call(url, 'GET', '/metrics')).status === 200;
  });
  return proc;
}

/** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. @returns the exit code or signal. */
export async function stop(proc: Proc, graceMs = 15_000): Promise<number | string> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.exited;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  try {
    return await proc.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILLs every child still running (stopped ones too) and waits for their exits. */
export async function killAll(): Promise<void> {
  const running = [...children];
  const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(
    running.map((child) => new Promise((resolve) => (ended(child) ? resolve(null) : child.once('exit', resolve)))),
  );
}
