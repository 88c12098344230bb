// Builds the service's OpenAPI document (what /openapi.json serves) without listening: the app is
// built on an in-memory SQLite database. Used by scripts/openapi-document.ts and scripts/console-types.ts.
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createMetrics } from '../src/metrics.js';
import { openServices } from '../src/services.js';

/** The OpenAPI 3 document of the current source, as `GET /openapi.json` answers it. */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const database = createDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const services = await openServices({ config, database });
  const app = await buildApp({ services, metrics: createMetrics(), logLevel: 'silent', bodyLimitBytes: config.bodyLimitBytes });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await database.close();
  }
}
