/**
 * Small file systems for storage-fault tests: a size-capped tmpfs (a disk that fills up) and a
 * read-only bind mount (a disk mounted read-only). Root ignores permission bits, so chmod cannot
 * make a file read-only for these tests; a read-only mount can. Needs root (CAP_SYS_ADMIN).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function mount(args: string[]): void {
  const result = spawnSync('mount', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mount ${args.join(' ')} failed: ${result.stderr}`);
}

/**
 * Why mounts cannot be used here, or undefined when they can (probed with a 1 MiB tmpfs).
 * Under `CI=true` that is an error: the fault tests must run in CI.
 * @throws Error under CI=true when mounting is not possible.
 */
export function mountSkipReason(): string | undefined {
  let reason: string | undefined;
  if (process.getuid?.() !== 0) reason = 'mounting a tmpfs needs root';
  else {
    const probe = mkdtempSync(join(tmpdir(), 'mount-probe-'));
    try {
      mount(['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]);
      spawnSync('umount', [probe]);
    } catch (error) {
      reason = `this sandbox does not allow mounting a tmpfs (${error instanceof Error ? error.message.trim() : error})`;
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  }
  if (reason && process.env.CI === 'true') throw new Error(`CI=true: ${reason}`);
  return reason;
}

/** A mounted folder and how to unmount it (and remove its mount point). Safe to call twice. */
export interface Mounted {
  readonly dir: string;
  unmount(): void;
}

function mounted(dir: string, base: string): Mounted {
  let done = false;
  return {
    dir,
    unmount() {
      if (done) return;
      done = true;
      spawnSync('umount', [dir]);
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** A tmpfs of `size` (e.g. `4m`) mounted on a new temporary folder. */
export function mountTmpfs(size: string): Mounted {
  const base = mkdtempSync(join(tmpdir(), 'fault-tmpfs-'));
  const dir = join(base, 'disk');
  mkdirSync(dir);
  mount(['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  return mounted(dir, base);
}

/** `source` mounted read-only on a new temporary folder (a bind mount, then remounted `ro`). */
export function bindReadOnly(source: string): Mounted {
  const base = mkdtempSync(join(tmpdir(), 'fault-ro-'));
  const dir = join(base, 'ro');
  mkdirSync(dir);
  mount(['--bind', source, dir]);
  try {
    mount(['-o', 'remount,ro,bind', dir]);
  } catch (error) {
    spawnSync('umount', [dir]);
    throw error;
  }
  return mounted(dir, base);
}
