/**
 * Delivery fairness (issue 23 item 1, PRODUCT §2.8): the time from a message's commit to its
 * receipt at a healthy endpoint, first with nothing else to send (idle), then while 10 endpoints
 * of another workspace hang (accept the POST, never answer) with a backlog of messages each. One
 * `privacyctl worker` delivers; messages to the healthy endpoint are committed one at a time,
 * `PACE_MS` apart, so each latency is that of one message rather than of a queue. Reports p50 and
 * p99 of both, side by side.
 */
import { join } from 'node:path';
import { resolve } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { runUnitOfWork } from '../src/db/unit-of-work.js';
import { enqueueEvent } from '../src/modules/outbound-events/outbox.repository.js';
import { openServices } from '../src/services.js';
import { type Child, SERVICE_NODE_FLAGS, startNode, stop } from './processes.js';
import type { Receiver } from './receiver.js';

const ROOT = resolve(import.meta.dirname, '..');
/** Hanging endpoints, and the backlog each holds. */
const HANGING = 10;
const BACKLOG_EACH = 20;
/** Pause between two messages to the healthy endpoint. */
const PACE_MS = 20;

/** Commit→receipt of the healthy endpoint's messages, idle and while others hang. */
export interface FairnessResult {
  messages: number;
  idle: { p50Ms: number; p99Ms: number; received: number };
  hanging: { p50Ms: number; p99Ms: number; received: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/**
 * Registers the endpoints (workspaces `fair-slow-<leg>`, `fair-fast-<leg>`), starts one worker,
 * measures `messages` messages to the healthy endpoint idle, then fills the hanging endpoints'
 * backlog and measures `messages` more; releases the hanging requests and stops the worker.
 */
export async function measureFairness(
  leg: string,
  databaseUrl: string,
  receiver: Receiver,
  messages: number,
  logDir: string,
): Promise<FairnessResult> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  const database = createDatabase(config.databaseUrl);
  let worker: Child | undefined;
  const fast = `fair-fast-${leg}`;
  const slow = `fair-slow-${leg}`;
  try {
    const services = await openServices({ config, database });
    await services.webhookEndpoints.create({ workspace_id: fast, url: `${receiver.url}/fair-${leg}` }, 'bench');
    for (let i = 0; i < HANGING; i += 1)
      await services.webhookEndpoints.create({ workspace_id: slow, url: `${receiver.url}/hang-${leg}-${i}` }, 'bench');
    const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WORKER_POLL_MS: '50', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' };
    worker = startNode(
      'fairness-worker',
      [...SERVICE_NODE_FLAGS, join(ROOT, 'bin/privacyctl.js'), 'worker'],
      env,
      join(logDir, `fairness-worker-${leg}.log`),
    );
    const measure = async (phase: string) => {
      const committed = new Map<number, number>();
      for (let n = 0; n < messages; n += 1) {
        await runUnitOfWork(database.db, async (unit) => {
          enqueueEvent(unit, { workspaceId: fast, type: 'privacy_request.created', data: { phase, n } });
        });
        committed.set(n, Date.now());
        await sleep(PACE_MS);
      }
      return committed;
    };
    const latencies = async (committedAt: Map<number, number>, before: Set<string>) => {
      const deadline = Date.now() + 20_000;
      const fresh = () => [...receiver.arrivals(`/fair-${leg}`)].filter(([id]) => !before.has(id));
      while (fresh().length < committedAt.size && Date.now() < deadline) await sleep(50);
      // Arrival order is commit order closely enough for percentiles (one message in flight at a time).
      const arrived = fresh()
        .map(([, times]) => times[0] ?? 0)
        .sort((a, b) => a - b);
      const commits = [...committedAt.values()].sort((a, b) => a - b);
      const sorted = arrived.map((t, i) => t - (commits[i] ?? t)).sort((a, b) => a - b);
      return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), received: arrived.length };
    };
    const seen = () => new Set(receiver.arrivals(`/fair-${leg}`).keys());
    // The worker is up once a first message arrived: its start is not part of either figure.
    await runUnitOfWork(database.db, async (unit) => {
      enqueueEvent(unit, { workspaceId: fast, type: 'privacy_request.created', data: { phase: 'warm-up' } });
    });
    const warm = Date.now() + 30_000;
    while (receiver.arrivals(`/fair-${leg}`).size === 0 && Date.now() < warm) await sleep(20);
    const beforeIdle = seen();
    const idle = await latencies(await measure('idle'), beforeIdle);
    // The other tenant's backlog: each enqueue reaches all its hanging endpoints.
    await runUnitOfWork(database.db, async (unit) => {
      for (let i = 0; i < BACKLOG_EACH; i += 1)
        enqueueEvent(unit, { workspaceId: slow, type: 'privacy_request.created', data: { i } });
    });
    await sleep(500);
    const beforeHanging = seen();
    const hanging = await latencies(await measure('hanging'), beforeHanging);
    return { messages, idle, hanging };
  } finally {
    receiver.release();
    if (worker) await stop(worker);
    // The hanging tenant's retries are not another phase's business.
    await database.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: new Date().toISOString() })
      .where('workspace_id', '=', slow)
      .execute();
    await database.close();
  }
}

/** The row under the table: the healthy endpoint's p99 idle and while 10 others hang. */
export function printFairness(result: FairnessResult | null): void {
  if (!result) return;
  const { idle, hanging } = result;
  console.log(
    `outbound delivery to a healthy endpoint, commit→receipt: idle p50 ${idle.p50Ms} ms p99 ${idle.p99Ms} ms (${idle.received}/${result.messages}); ` +
      `while ${HANGING} endpoints of another workspace hang p50 ${hanging.p50Ms} ms p99 ${hanging.p99Ms} ms (${hanging.received}/${result.messages})`,
  );
}
