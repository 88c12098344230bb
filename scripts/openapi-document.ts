// Writes the service's OpenAPI document (what /openapi.json serves) to the path given, without
// listening: the app is built on an in-memory SQLite database. Used by `npm run lint:openapi`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createMetrics } from '../src/metrics.js';
import { openServices } from '../src/services.js';

const out = process.argv[2];
if (!out) throw new Error('usage: openapi-document.ts OUT.json');
const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
const database = createDatabase(config.databaseUrl);
await migrateToLatest(database.db);
const services = await openServices({ config, database });
const app = await buildApp({ services, metrics: createMetrics(), logLevel: 'silent', bodyLimitBytes: config.bodyLimitBytes });
await app.ready();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await database.close();
