/**
 * The databases a bench run measures: always a fresh SQLite file; also PostgreSQL when
 * `BENCH_DATABASE_URL` is set, in a fresh schema dropped afterwards. Plus the one query the
 * bench itself runs against them: how many requests are finished.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { openServices } from '../src/services.js';

/** One database leg of a run: its `DATABASE_URL` and how to remove it. */
export interface BenchDatabase {
  readonly name: 'sqlite' | 'postgres';
  readonly url: string;
  drop(): Promise<void>;
}

async function adminQuery(baseUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh schema on `baseUrl`, selected through the connection's search_path. */
async function postgresLeg(baseUrl: string): Promise<BenchDatabase> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await adminQuery(baseUrl, `create schema ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { name: 'postgres', url: url.toString(), drop: () => adminQuery(baseUrl, `drop schema ${schema} cascade`) };
}

/**
 * The legs to run, in order: SQLite in `workDir`, then PostgreSQL when `BENCH_DATABASE_URL`
 * is set. `BENCH_DATABASES=postgres` (or `sqlite`) runs one only.
 * @throws Error when PostgreSQL is asked for without `BENCH_DATABASE_URL`.
 */
export async function benchDatabases(workDir: string): Promise<(() => Promise<BenchDatabase>)[]> {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const wanted = (process.env.BENCH_DATABASES ?? (pgUrl ? 'sqlite,postgres' : 'sqlite')).split(',').map((s) => s.trim());
  if (wanted.includes('postgres') && !pgUrl) throw new Error('BENCH_DATABASES names postgres but BENCH_DATABASE_URL is not set');
  return wanted.map((name) =>
    name === 'postgres'
      ? () => postgresLeg(pgUrl as string)
      : async () => ({ name: 'sqlite' as const, url: `sqlite:${join(workDir, 'privacy.db')}`, drop: async () => undefined }),
  );
}

/**
 * PostgreSQL only: `ANALYZE` of the tables the read scenarios (queue, audit) search, right
 * before them. The filing scenarios grow those tables from nothing within seconds, faster
 * than autovacuum's next analyze (`autovacuum_naptime`, one minute); without statistics the
 * planner guesses a scan (measured: the audit list 5.9 ms a request instead of 0.46 ms). A
 * running service has them, so the rows measure the plan it would have. SQLite keeps no
 * such statistics in this service; nothing to do there.
 */
export async function refreshPlannerStatistics(database: BenchDatabase): Promise<void> {
  if (database.name !== 'postgres') return;
  await adminQuery(database.url, 'analyze privacy_requests, audit_events');
}

/** Requests by status, read from the database (the bench's view of the worker's progress). */
export async function countByStatus(databaseUrl: string): Promise<Record<string, number>> {
  const database = createDatabase(databaseUrl);
  try {
    const rows = await database.db
      .selectFrom('privacy_requests')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  } finally {
    await database.close();
  }
}

/** Cancels every request still waiting (the delivery phase measures deliveries alone). */
export async function cancelQueued(databaseUrl: string): Promise<void> {
  const database = createDatabase(databaseUrl);
  try {
    await database.db
      .updateTable('privacy_requests')
      .set({ status: 'canceled', status_reason: 'bench: delivery phase' })
      .where('status', 'in', ['queued', 'pending_approval'])
      .execute();
  } finally {
    await database.close();
  }
}

/**
 * Disables every webhook endpoint through the service (as `PATCH … {"disabled":true}` does: their
 * pending messages fail). After the HTTP scenarios, so the worker phase measures request
 * processing as before outbound events existed, and the delivery phase starts from an empty outbox;
 * delivery has its own phase (bench/delivery-phase.ts).
 */
export async function disableEndpoints(databaseUrl: string): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const database = createDatabase(config.databaseUrl);
  try {
    const services = await openServices({ config, database });
    for (const endpoint of await services.webhookEndpoints.list('*'))
      await services.webhookEndpoints.update(endpoint.id, { disabled: true }, 'bench', () => true);
  } finally {
    await database.close();
  }
}
