/** The demo's service: the real app and worker, in-process, on a fresh SQLite database in a temporary folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { startWorker } from '../../src/jobs/start-worker.js';
import { createMetrics } from '../../src/metrics.js';
import { openServices, type Services } from '../../src/services.js';

/** A running stack: its base URL, its services, and how to stop it and remove its folder. */
export interface DemoStack {
  baseUrl: string;
  services: Services;
  stop(): Promise<void>;
}

/**
 * loadConfig (DATABASE_URL, and `env`, e.g. `SMTP_URL`) → migrateToLatest → openServices →
 * buildApp → listen on 127.0.0.1 at a free port, plus the worker (and, with `SMTP_URL`, its mail
 * loop) polling every 50 ms. Logs are silenced: the demo prints its own story. If starting fails
 * half-way, what was started is stopped again.
 */
export async function startStack(env: Record<string, string> = {}): Promise<DemoStack> {
  const dir = mkdtempSync(join(tmpdir(), 'privacy-demo-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    // The demo's receivers listen on loopback, which a real deployment refuses (docs/outbound-events.md).
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'privacy.db')}`,
      LOG_LEVEL: 'silent',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      // The demo's shop database (scripts/demo/shop-database.ts) is on this machine.
      CONNECTOR_ALLOWED_HOSTS: '127.0.0.1',
      ...env,
    });
    const database = createDatabase(config.databaseUrl);
    cleanups.push(() => database.close());
    await migrateToLatest(database.db);
    const services = await openServices({ config, database });
    const metrics = createMetrics({ db: database.db, clock: services.clock });
    const app = await buildApp({ services, metrics, logLevel: config.logLevel, bodyLimitBytes: config.bodyLimitBytes });
    cleanups.push(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    // Data systems report back to the address the demo listens on (PUBLIC_BASE_URL).
    const worker = startWorker(services, { ...config.worker, pollMs: 50, publicBaseUrl: baseUrl }, pino({ level: 'silent' }));
    cleanups.push(() => worker.stop());
    return { baseUrl, services, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
