import type { Executor } from '../db/executor.js';
import { toTimestamp } from '../lib/clock.js';
import type { PolicyService } from '../modules/policies/policy.service.js';
import {
  deleteDuePackages,
  deliveredHeldPackages,
  finishHeldErasure,
  packagesWithoutExpiry,
  setPackageExpiry,
} from '../modules/privacy-requests/result.repository.js';
import { deliveredPackage } from '../modules/subject-data/package-delivery.fns.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The parts of a stored package that decide its expiry: its workspace and the change events it copied. */
interface PackageSources {
  workspace_id?: unknown;
  data?: { 'user.content'?: { change_events?: { repository?: unknown; received_at?: unknown }[] } };
}

/**
 * When a package must go (docs/decisions.md, "Packages expire"): `retentionDays` after it was
 * produced, or when the first change event it copied passes its own retention (`received_at` +
 * the effective `retention_days` of its workspace and repository), whichever is earlier. The
 * profile categories (account, e-mail, name) are kept by the service until erased, so they set
 * no earlier date.
 *
 * @param pkg - the stored package JSON; @param producedAt - RFC 3339 UTC.
 * @returns RFC 3339 UTC.
 */
export async function packageExpiry(
  pkg: string,
  producedAt: string,
  retentionDays: number,
  policies: Pick<PolicyService, 'effective'>,
): Promise<string> {
  let expires = new Date(producedAt).getTime() + retentionDays * DAY_MS;
  const parsed = JSON.parse(pkg) as PackageSources;
  const workspace = typeof parsed.workspace_id === 'string' ? parsed.workspace_id : null;
  for (const event of parsed.data?.['user.content']?.change_events ?? []) {
    if (workspace === null || typeof event.repository !== 'string' || typeof event.received_at !== 'string') continue;
    const { policy } = await policies.effective(workspace, event.repository);
    expires = Math.min(expires, new Date(event.received_at).getTime() + policy.retention_days * DAY_MS);
  }
  return toTimestamp(new Date(expires));
}

/**
 * Packages a deletion held while they were in transit and that have been fetched once since
 * (PRODUCT §2.13): erased now as the deletion would have erased them ({@link deliveredPackage}).
 * @returns how many were erased.
 */
async function eraseDeliveredHeld(
  run: <T>(work: (db: Executor) => Promise<T>) => Promise<T>,
  batchSize: number,
  pause: () => Promise<void>,
): Promise<number> {
  let erased = 0;
  for (;;) {
    const count = await run(async (db) => {
      const rows = await deliveredHeldPackages(db, batchSize);
      for (const row of rows) {
        const held = row.package_erasure_held ?? '[]';
        await finishHeldErasure(db, row.request_id, held, row.package === null ? null : deliveredPackage(row.package, held));
      }
      return rows.length;
    });
    erased += count;
    if (count < batchSize) return erased;
    await pause();
  }
}

/**
 * The retention sweeper's package step: computes the expiry of packages that have none yet (new
 * ones, and those stored before expiry existed), erases what a deletion held on packages fetched
 * since, then deletes every package past its expiry, in batches of `batchSize` with a yield
 * between them. Each batch's statements go through `run` (the sweeper's: under the sweeps'
 * statement bound, db/statement-bound.ts); the expiries of a batch are computed before its writes
 * (a policy lookup is no statement of the sweep's).
 *
 * @returns how many packages were deleted or cut by a held erasure.
 */
export async function expirePackages(deps: {
  /** Runs one batch's statements (on PostgreSQL in a transaction of their own). */
  run: <T>(work: (db: Executor) => Promise<T>) => Promise<T>;
  policies: Pick<PolicyService, 'effective'>;
  now: Date;
  retentionDays: number;
  batchSize: number;
  /** Awaited between batches (default: one event-loop turn); the sweeper's stops a sweep at SIGTERM. */
  pause?: () => Promise<void>;
}): Promise<number> {
  const { run, batchSize } = deps;
  const pause = deps.pause ?? nextTick;
  for (;;) {
    const rows = await run((db) => packagesWithoutExpiry(db, batchSize));
    const expiries: [requestId: string, expiresAt: string][] = [];
    for (const row of rows)
      expiries.push([
        row.request_id,
        await packageExpiry(row.package ?? '{}', row.created_at, deps.retentionDays, deps.policies),
      ]);
    await run(async (db) => {
      for (const [requestId, expiresAt] of expiries) await setPackageExpiry(db, requestId, expiresAt);
    });
    if (rows.length < batchSize) break;
    await pause();
  }
  const now = toTimestamp(deps.now);
  let deleted = await eraseDeliveredHeld(run, batchSize, pause);
  for (;;) {
    const count = await run((db) => deleteDuePackages(db, now, batchSize));
    deleted += count;
    if (count < batchSize) return deleted;
    await pause();
  }
}
