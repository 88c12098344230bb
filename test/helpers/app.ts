import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import type { Clock } from '../../src/lib/clock.js';
import { createMetrics } from '../../src/metrics.js';
import { openServices, type Services } from '../../src/services.js';
import type { TestDatabase } from './databases.js';

/** A running (not listening) app on a test database, and helpers to use it. */
export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** Creates an API token and returns the `Authorization` header value. */
  bearer(scopes: string[], workspaces?: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds the app on `database` exactly as the server does (migrations included).
 *
 * @param options.env - extra environment for loadConfig (e.g. OIDC settings).
 * @param options.clock - a fixed clock for deadline tests.
 * @param options.consoleDir - a built console to serve at `/console/` (default: dist/console).
 */
export async function startTestApp(
  database: TestDatabase,
  options: { env?: Record<string, string>; clock?: Clock; consoleDir?: string } = {},
): Promise<TestApp> {
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ...options.env });
  const db = createDatabase(config.databaseUrl, { statementTimeoutMs: config.pgStatementTimeoutMs });
  await migrateToLatest(db.db);
  const services = await openServices({ config, database: db, ...(options.clock ? { clock: options.clock } : {}) });
  const app = await buildApp({
    services,
    metrics: createMetrics({ db: db.db, clock: services.clock }),
    logLevel: config.logLevel,
    bodyLimitBytes: config.bodyLimitBytes,
    protection: config.protection,
    metricsToken: config.metricsToken,
    consoleOidc: config.oidc?.console ?? null,
    ...(options.consoleDir ? { consoleDir: options.consoleDir } : {}),
  });
  await app.ready();
  return {
    app,
    services,
    bearer: async (scopes, workspaces = ['acme']) => {
      const { token } = await services.tokens.create({ name: 'test', scopes, workspaces, actor: 'test' });
      return `Bearer ${token}`;
    },
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
