/**
 * Outbound delivery (issue 14, PRODUCT §2.8): `workers` `privacyctl worker` processes deliver
 * messages that this process commits to the outbox at a steady pace while they run, to a
 * receiver on loopback. Reports messages per second per worker process, the p99 time from the
 * commit to the receipt, and how many messages arrived twice or never: with 2 workers on
 * PostgreSQL each message must arrive exactly once (a message may arrive twice only after an
 * attempt timed out, which a loopback receiver answering at once never causes).
 */
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { runUnitOfWork } from '../src/db/unit-of-work.js';
import { enqueueEvent } from '../src/modules/outbound-events/outbox.repository.js';
import { openServices } from '../src/services.js';
import { type Child, SERVICE_NODE_FLAGS, startNode, stop } from './processes.js';
import type { Receiver } from './receiver.js';

const ROOT = resolve(import.meta.dirname, '..');
const WORKSPACE = 'deliveries';
/** Messages committed per batch (one unit of work), and the pause between batches. */
const BATCH = 20;
const BATCH_EVERY_MS = 10;

export interface DeliveryResult {
  workers: number;
  messages: number;
  received: number;
  duplicates: number;
  missing: number;
  perSecPerWorker: number;
  p50Ms: number;
  p99Ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/**
 * Registers an endpoint to `receiver` in its own workspace, starts `workers` worker processes,
 * commits `messages` messages in batches while they run, waits (at most 60 s) until all arrived,
 * and stops the workers. The leg's request queue must be empty (the caller cancels what is left).
 */
export async function measureDelivery(
  leg: string,
  databaseUrl: string,
  receiver: Receiver,
  workers: number,
  messages: number,
  logDir: string,
): Promise<DeliveryResult> {
  const path = `/deliver-${leg}-${workers}`;
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  const database = createDatabase(config.databaseUrl);
  const children: Child[] = [];
  try {
    const services = await openServices({ config, database });
    await services.webhookEndpoints.create({ workspace_id: `${WORKSPACE}-${workers}`, url: `${receiver.url}${path}` }, 'bench');
    const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WORKER_POLL_MS: '50', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' };
    for (let i = 0; i < workers; i++)
      children.push(
        startNode(
          `delivery-worker-${i}`,
          [...SERVICE_NODE_FLAGS, join(ROOT, 'bin/privacyctl.js'), 'worker'],
          env,
          join(logDir, `delivery-worker-${leg}-${workers}-${i}.log`),
        ),
      );
    await sleep(1500);
    const committed = new Map<string, number>();
    const started = Date.now();
    for (let sent = 0; sent < messages; sent += BATCH) {
      const n = Math.min(BATCH, messages - sent);
      const before = new Date().toISOString();
      await runUnitOfWork(database.db, async (unit) => {
        for (let k = 0; k < n; k++)
          enqueueEvent(unit, { workspaceId: `${WORKSPACE}-${workers}`, type: 'privacy_request.created', data: { n: sent + k } });
      });
      const at = Date.now();
      // The batch's ids (the outbox names them at commit), noted with the commit's time.
      const rows = await database.db
        .selectFrom('outbound_messages')
        .select('id')
        .where('workspace_id', '=', `${WORKSPACE}-${workers}`)
        .where('created_at', '>=', before)
        .execute();
      for (const r of rows) if (!committed.has(r.id)) committed.set(r.id, at);
      await sleep(BATCH_EVERY_MS);
    }
    const deadline = Date.now() + 60_000;
    while (receiver.arrivals(path).size < messages && Date.now() < deadline) await sleep(50);
    const arrivals = receiver.arrivals(path);
    const last = Math.max(...[...arrivals.values()].map((t) => t[0] ?? 0));
    const latencies = [...arrivals]
      .map(([id, times]) => (times[0] ?? 0) - (committed.get(id) ?? times[0] ?? 0))
      .sort((a, b) => a - b);
    const received = arrivals.size;
    return {
      workers,
      messages,
      received,
      duplicates: [...arrivals.values()].filter((t) => t.length > 1).length,
      missing: messages - received,
      perSecPerWorker: received / ((last - started) / 1000) / workers,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
    };
  } finally {
    for (const child of children) await stop(child);
    await database.close();
  }
}

/** One line per delivery run, under the table. */
export function printDelivery(results: DeliveryResult[]): void {
  for (const r of results)
    console.log(
      `outbound delivery, ${r.workers} worker(s): ${r.received}/${r.messages} messages, ${r.perSecPerWorker.toFixed(0)} msg/s per worker, commit→receipt p50 ${r.p50Ms} ms p99 ${r.p99Ms} ms, duplicates ${r.duplicates}, missing ${r.missing}`,
    );
}
