/**
 * The real service as a child process (`privacyctl serve` from a private build, see
 * privacyctl.ts), for tests that kill its database, its disk or the process itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port.js';

/** A started `privacyctl serve`: its URL, what it printed so far, and how it ended. */
export interface ServiceProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** SIGKILL if still running (cleanup path). */
  kill(): void;
}

/**
 * Spawns `node BIN serve` on a free port with `env` over this process's environment.
 * Does not wait: see {@link waitUntilServing}.
 */
export async function spawnService(bin: string, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => ({ stdout, stderr }),
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Polls `/healthz` until it answers 200. The wait is generous (90 s): it is not a bound on start-up
 * time (that is the bench's), and on a loaded 2-core machine a start took over 30 s (two fault
 * tests failed so while other work ran beside the suite).
 * @throws Error with the child's output when it exits first or does not answer within `timeoutMs`.
 */
export async function waitUntilServing(service: ServiceProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) break;
    try {
      if ((await fetch(`${service.url}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { stdout, stderr } = service.output();
  throw new Error(
    `service did not start (exit ${service.child.exitCode}, ${Math.round(timeoutMs / 1000)} s):\n${stdout}\n${stderr}`,
  );
}

/** Starts the service and waits until it serves. */
export async function startService(bin: string, env: Record<string, string>): Promise<ServiceProcess> {
  const service = await spawnService(bin, env);
  try {
    await waitUntilServing(service);
  } catch (error) {
    service.kill();
    throw error;
  }
  return service;
}

/** One HTTP answer as a test needs it: status, the headers that matter, the parsed body. */
export interface Answer {
  status: number;
  retryAfter: string | null;
  replayed: boolean;
  body: unknown;
}

/**
 * `fetch` with a bound: a request that hangs longer than `timeoutMs` rejects (TimeoutError),
 * so a hang shows as a failure instead of a stuck test.
 */
export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  timeoutMs = 20_000,
): Promise<Answer> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    replayed: response.headers.get('idempotent-replayed') === 'true',
    body,
  };
}

/**
 * Readies workspace `workspaceId` of a running service for load whose subjects are unknown on
 * purpose (fault and scale tests): names its controller and turns off the review of unmatched
 * identities (PRODUCT §2.13, policy `confirm_no_data: false`), so that every request completes
 * instead of waiting in `action_required`. `adminAuth` is an `Authorization` value of an admin token.
 */
export async function answerUnknownSubjects(url: string, adminAuth: string, workspaceId = 'acme'): Promise<void> {
  const headers = { authorization: adminAuth };
  const controller = { name: 'Acme GmbH', contact_email: 'privacy@acme.example' };
  const named = await call(`${url}/api/v1/workspaces/${workspaceId}/controller`, { method: 'PUT', headers, body: controller });
  if (named.status !== 200) throw new Error(`controller profile: ${named.status} ${JSON.stringify(named.body)}`);
  const policy = { confirm_no_data: false };
  const set = await call(`${url}/api/v1/policies/workspaces/${workspaceId}`, { method: 'PUT', headers, body: policy });
  if (set.status !== 200) throw new Error(`policy: ${set.status} ${JSON.stringify(set.body)}`);
}
