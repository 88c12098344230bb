/**
 * A throwaway PostgreSQL cluster for fault tests: `initdb` in a temporary folder, its own port on
 * 127.0.0.1, its own socket folder, trust authentication, fsync off. The tests stop and start it
 * at will; the machine's own instance (port 5432) is never touched.
 *
 * initdb and postgres refuse to run as root, so under root they run as the `postgres` OS user
 * (`runuser -u postgres`) in a folder chowned to it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

const PG_ROOT = '/usr/lib/postgresql';

/** How `pg_ctl stop` ends the server: `immediate` (crash-like, no checkpoint), `fast` (disconnects clients), `smart`. */
export type StopMode = 'immediate' | 'fast' | 'smart';

/** A private cluster: its URL, and how to stop, start and remove it. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  readonly url: string;
  readonly port: number;
  /** Starts the server and waits until it accepts connections (without blocking the event loop). */
  start(): Promise<void>;
  /** `pg_ctl stop -m MODE`, waiting until the server is gone (without blocking the event loop). */
  stop(mode: StopMode): Promise<void>;
  /** Stops the server if it runs (immediate) and removes the folder. Safe to call twice. */
  cleanup(): void;
}

/** The newest `/usr/lib/postgresql/<ver>/bin` that has `initdb`, or null. */
export function findPostgresBin(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], 'bin') : null;
}

/**
 * Why the private-PostgreSQL tests cannot run here, or undefined when they can. Under
 * `CI=true` a missing initdb is an error, not a skip: the fault tests must run in CI.
 *
 * @throws Error under CI=true when initdb is missing.
 */
export function privatePostgresSkipReason(): string | undefined {
  if (findPostgresBin()) return undefined;
  const reason = `no initdb under ${PG_ROOT}/<version>/bin: install the PostgreSQL server package to run the fault tests`;
  if (process.env.CI === 'true') throw new Error(`CI=true: ${reason}`);
  return reason;
}

const live = new Set<() => void>();
// Last resort: a test process that ends without its after() hooks must not leave a postgres behind.
process.once('exit', () => {
  for (const cleanup of live) cleanup();
});

/** A server certificate and its key, PEM text: the cluster then takes TLS (`ssl=on`) besides plain connections. */
export interface ServerTls {
  readonly cert: string;
  readonly key: string;
}

/**
 * Creates (initdb) and starts a private cluster.
 *
 * @param options.tls - serve TLS with this certificate and key.
 * @throws Error with the tool's output when initdb or the first start fails (the folder is removed).
 */
export async function createPrivatePostgres(options: { tls?: ServerTls } = {}): Promise<PrivatePostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(privatePostgresSkipReason() ?? 'initdb not found');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'private-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
        gid: Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
      }
    : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  if (options.tls) {
    // PostgreSQL refuses a key file others may read.
    for (const [name, text] of [
      ['server.crt', options.tls.cert],
      ['server.key', options.tls.key],
    ] as const) {
      writeFileSync(join(dir, name), text, { mode: 0o600 });
      chmodSync(join(dir, name), 0o600);
      if (owner) chownSync(join(dir, name), owner.uid, owner.gid);
    }
  }
  const argv = (tool: string, args: string[]) =>
    asRoot ? ['runuser', '-u', 'postgres', '--', join(bin, tool), ...args] : [join(bin, tool), ...args];
  const run = (tool: string, args: string[]) => {
    const [command, ...rest] = argv(tool, args);
    const result = spawnSync(command as string, rest, { encoding: 'utf8', cwd: dir, timeout: 60_000 });
    return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
  };
  // The load a test runs meanwhile must keep going: no spawnSync while the service is under test.
  const runAsync = (tool: string, args: string[]) =>
    new Promise<{ ok: boolean; output: string }>((resolve) => {
      const [command, ...rest] = argv(tool, args);
      const child = spawn(command as string, rest, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('close', (code) => resolve({ ok: code === 0, output }));
    });
  let running = false;
  const logFile = join(dir, 'postgres.log');
  const tls = options.tls ? ` -c ssl=on -c ssl_cert_file=${dir}/server.crt -c ssl_key_file=${dir}/server.key` : '';
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off${tls}`;
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      const result = await runAsync('pg_ctl', ['-D', data, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
      if (!result.ok) throw new Error(`pg_ctl start failed:\n${result.output}\n${readLog(logFile)}`);
      running = true;
    },
    async stop(mode) {
      const result = await runAsync('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      if (!result.ok) throw new Error(`pg_ctl stop failed:\n${result.output}`);
      running = false;
    },
    cleanup() {
      if (running) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      running = false;
      rmSync(dir, { recursive: true, force: true });
      live.delete(cluster.cleanup);
    },
  };
  live.add(cluster.cleanup);
  const init = run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  if (!init.ok) {
    cluster.cleanup();
    throw new Error(`initdb failed:\n${init.output}`);
  }
  try {
    await cluster.start();
  } catch (error) {
    cluster.cleanup();
    throw error;
  }
  return cluster;
}

function readLog(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-20).join('\n') : '';
}
