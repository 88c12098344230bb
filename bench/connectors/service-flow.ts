/**
 * A one-database request through the whole service (issue 32 item 9): the service in this
 * process (app, worker and task runner as `serve` starts them, default `WORKER_POLL_MS`), one
 * database system on the bench target, and access requests by e-mail filed one at a time on an
 * idle service (each after the loops went back to their idle wait). Per request: filed →
 * completed (the POST until the request's status is `completed`), the data task's own part
 * (its `created_at` → `completed_at`: claim, connector run, result recorded; the stored times
 * have millisecond precision), and the same statements by hand through the driver in the same
 * run (bench/connectors/baseline.ts), on the store given (SQLite file or PostgreSQL schema).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { startWorker } from '../../src/jobs/start-worker.js';
import { createMetrics } from '../../src/metrics.js';
import type { Dataset } from '../../src/modules/connectors/connectors.js';
import { openServices } from '../../src/services.js';
import { baselineAccess } from './baseline.js';
import { BENCH_DATASET, type BenchTarget } from './targets.js';

export type Store = 'sqlite' | 'postgres';

const PG_ADMIN = process.env.CONNECTOR_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The pause after a request completed, so the next one is filed on an idle service, ms. */
const SETTLE_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds per request of the three measures. */
export interface FlowTimes {
  filed: number[];
  task: number[];
  byHand: number[];
}

/** A fresh service store: its `DATABASE_URL` and how to remove it. */
async function createStore(store: Store): Promise<{ url: string; drop(): Promise<void> }> {
  if (store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-flow-'));
    return { url: `sqlite:${join(dir, 'privacy.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_flow_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * Files `requests` access requests for `emails(i)` on `store` against `target`, one at a time.
 * @throws Error when a request does not complete within 30 s or its task did not complete.
 */
export async function benchServiceFlow(
  store: Store,
  target: BenchTarget,
  dataset: Dataset,
  emails: (i: number) => string,
  requests: number,
): Promise<FlowTimes> {
  const place = await createStore(store);
  const config = loadConfig({ DATABASE_URL: place.url, LOG_LEVEL: 'silent', CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' });
  const database = createDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const services = await openServices({ config, database });
  const app = await buildApp({
    services,
    metrics: createMetrics({ db: database.db, clock: services.clock }),
    logLevel: 'silent',
    bodyLimitBytes: config.bodyLimitBytes,
    protection: config.protection,
    metricsToken: config.metricsToken,
    consoleOidc: null,
  });
  await app.ready();
  const worker = startWorker(services, config.worker, pino({ level: 'silent' }));
  const times: FlowTimes = { filed: [], task: [], byHand: [] };
  try {
    await services.controllers.put('acme', { name: 'Bench GmbH', contact_email: 'privacy@bench.example' }, 'bench');
    const { token } = await services.tokens.create({
      name: 'bench',
      scopes: ['admin', 'privacy:write', 'privacy:read'],
      workspaces: ['acme'],
      actor: 'bench',
    });
    const headers = { authorization: `Bearer ${token}` };
    const system = await app.inject({
      method: 'POST',
      url: '/api/v1/data-systems',
      headers,
      payload: {
        workspace_id: 'acme',
        key: 'bench-db',
        name: 'Bench database',
        kind: target.engine,
        connection: { url: target.url },
        dataset: JSON.stringify(BENCH_DATASET),
      },
    });
    if (system.statusCode !== 201) throw new Error(`data system not registered: ${system.statusCode} ${system.body}`);
    const db = database.db;
    const statusOf = async (id: string) =>
      (await db.selectFrom('privacy_requests').select('status').where('id', '=', id).executeTakeFirst())?.status;
    for (let i = 0; i < requests; i++) {
      await sleep(SETTLE_MS);
      const email = emails(i);
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { ...headers, 'idempotency-key': `bench-flow-${i}` },
        payload: {
          request_type: 'access',
          scope: ['user'],
          subject_provider: 'email',
          subject_id: email,
          workspace_id: 'acme',
          client_request_id: `bench-flow-${i}`,
          intake_ref: 'https://support.example.com/tickets/bench',
        },
      });
      if (res.statusCode !== 202) throw new Error(`filing refused: ${res.statusCode} ${res.body}`);
      const id = (res.json() as { id: string }).id;
      // Checked after each commit of this process (the wake-ups), so the end is seen when it commits.
      await new Promise<void>((resolve, reject) => {
        let checking = false;
        const check = () => {
          if (checking) return;
          checking = true;
          void statusOf(id).then((status) => {
            checking = false;
            if (status === 'completed') done();
          }, fail);
        };
        const deadline = setTimeout(() => fail(new Error(`request ${i} not completed within 30 s`)), 30_000);
        const fallback = setInterval(check, 20);
        const unsubscribe = database.wakeups.subscribe(check);
        function done() {
          clearTimeout(deadline);
          clearInterval(fallback);
          unsubscribe();
          resolve();
        }
        function fail(error: unknown) {
          clearTimeout(deadline);
          clearInterval(fallback);
          unsubscribe();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
        check();
      });
      times.filed.push(performance.now() - started);
      const task = await db
        .selectFrom('data_tasks')
        .select(['status', 'created_at', 'completed_at'])
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      if (task.status !== 'completed' || !task.completed_at) throw new Error(`request ${i}: its task is ${task.status}`);
      times.task.push(Date.parse(task.completed_at) - Date.parse(task.created_at));
      const handStart = performance.now();
      await baselineAccess(target.engine, target.url, dataset, emails(requests + i), 1000);
      times.byHand.push(performance.now() - handStart);
    }
    return times;
  } finally {
    await worker.stop();
    await app.close();
    await database.close();
    await place.drop();
  }
}
