/**
 * Child processes for the benchmark: start, wait until they answer, read their memory, stop.
 * Every child started here is remembered, so {@link stopAll} can end them on any exit path.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { freePort } from '../test/helpers/free-port.js';

export { freePort };

/** A started child: its process, and the file its stdout and stderr go to (or null). */
export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly logPath: string | null;
}

const children = new Set<Child>();

/**
 * The service's environment for load: rate limits off (docs/protection.md), and the privacy
 * center's abuse limits off (docs/privacy-center.md), since one token and one address send
 * everything here; with the defaults most requests would be 429s.
 */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_PER_TOKEN: '0',
  RATE_LIMIT_PER_SOURCE: '0',
  PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0',
  PRIVACY_CENTER_CODES_PER_HOUR: '0',
  // One bench agent sends every DRP exercise (bench/drp-scenario.ts).
  DRP_CALLS_PER_MINUTE: '0',
} as const;

/**
 * Node flags the service runs with in production (`npm start` in package.json, bin/privacyctl.js):
 * a young generation of 2 × 8 MiB instead of 2 × 16 MiB, and an old generation allowed to grow to
 * 2× what survived the last full collection instead of up to 4×: less peak RSS under write load at
 * the same throughput (docs/operations.md, "Memory").
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=100'] as const;

/** Limits on but never reached: what counting costs per request (`BENCH_RATE_LIMITS=on`). */
export const UNREACHABLE_RATE_LIMITS = {
  RATE_LIMIT_PER_TOKEN: '1000000',
  RATE_LIMIT_PER_SOURCE: '1000000',
  PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '1000000',
  PRIVACY_CENTER_CODES_PER_HOUR: '1000000',
  DRP_CALLS_PER_MINUTE: '1000000',
} as const;

/**
 * Starts `node ARGS…` with `env` added to this process's environment.
 * @param logPath - file for stdout and stderr; null keeps stdout as a pipe (read by the caller).
 */
export function startNode(name: string, args: string[], env: Record<string, string>, logPath: string | null): Child {
  const fd = logPath ? openSync(logPath, 'w') : null;
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', fd ?? 'pipe', fd ?? 'inherit'],
  });
  if (fd !== null) closeSync(fd);
  const started = { name, process: child, logPath };
  children.add(started);
  child.once('exit', () => children.delete(started));
  return started;
}

/** Resolves with the first stdout line of `child` parsed as JSON; rejects if it exits first. */
export function firstJsonLine<T>(child: Child, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${child.name}: no output in ${timeoutMs} ms`)), timeoutMs);
    child.process.once('exit', (code) => reject(new Error(`${child.name} exited early (code ${code})`)));
    child.process.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      resolve(JSON.parse(buffered.slice(0, newline)) as T);
    });
  });
}

/** Polls `url` until it answers 200; throws with the child's log tail if it exits or times out. */
export async function waitForHttp(child: Child, url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null)
      throw new Error(`${child.name} exited (code ${child.process.exitCode})\n${logTail(child)}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms\n${logTail(child)}`);
}

/** The last `lines` lines of the child's log file ('' when it has none). */
export function logTail(child: Child, lines = 20): string {
  if (!child.logPath || !existsSync(child.logPath)) return '';
  return readFileSync(child.logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** Memory of a live process from /proc/<pid>/status, in MiB: peak (VmHWM) and current (VmRSS); null off Linux. */
export function readMemory(pid: number | undefined): { peakMb: number; rssMb: number } | null {
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return null;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

/** SIGTERM, then SIGKILL after `graceMs` (a graceful exit is what writes a --cpu-prof profile). */
export async function stop(child: Child, graceMs = 5_000): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Stops every child still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child)));
}

/** Last resort on process exit (synchronous): SIGKILL whatever is left. */
export function killAllNow(): void {
  for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
}
