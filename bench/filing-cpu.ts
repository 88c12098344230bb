/**
 * CPU time per filing, in-process (no load generator, no sockets between client and service):
 * a fresh database, the app built as the tests build it (test/helpers/app.ts), then
 * `FILING_WARMUP` (default 500) filings of warm-up and `FILING_COUNT` (default 4,000) measured
 * ones through `POST /api/v1/privacy/requests` by `app.inject`, `FILING_CONCURRENCY` (default
 * 50) in flight. Each filing has a new Idempotency-Key and client_request_id (the `create`
 * bench row's body, bench/seed.ts).
 *
 * Prints one JSON line: filings per second, Node's CPU per filing (`process.cpuUsage()`, user +
 * system, µs) and, on PostgreSQL, the database's CPU per filing (utime + stime of the
 * connection's backends from `/proc`, µs). What the machine's other load disturbs less than a
 * throughput is the CPU per filing; still, run two revisions alternating and read medians of
 * pairs (bench/README.md "Measured choices").
 *
 * Usage, from a checkout's root: `node --import tsx bench/filing-cpu.ts` (SQLite in a temp
 * folder) or with `FILING_DATABASE_URL=postgres://root@127.0.0.1:5432/test` (a fresh schema on
 * it, dropped after). The script only uses test/helpers/app.ts and databases.ts, so it runs
 * unchanged on older revisions (copy it into their checkout).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { startTestApp } from '../test/helpers/app.js';
import { postgresDatabase, sqliteDatabase } from '../test/helpers/databases.js';
import { createBody } from './seed.js';

const WARMUP = Number(process.env.FILING_WARMUP ?? 500);
const COUNT = Number(process.env.FILING_COUNT ?? 4000);
const CONCURRENCY = Number(process.env.FILING_CONCURRENCY ?? 50);
const baseUrl = process.env.FILING_DATABASE_URL;

const database = baseUrl ? await postgresDatabase(baseUrl) : sqliteDatabase();
// No rate limit (as the HTTP bench's service, bench/processes.ts): 6,000 a minute would stop the run.
const testApp = await startTestApp(database, { env: { RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_SOURCE: '0' } });
const authorization = await testApp.bearer(['admin'], ['*']);
const runId = `cpu${process.pid}`;

/** Statements sent to PostgreSQL (each `Client.query` is one round trip, written in one `writev`). */
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

/** Files `count` requests, `CONCURRENCY` at a time; numbering goes on from `from`. */
async function file(from: number, count: number): Promise<void> {
  let next = from;
  const end = from + count;
  const worker = async () => {
    while (next < end) {
      const n = next++;
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization, 'content-type': 'application/json', 'idempotency-key': `key-${runId}-${n}` },
        payload: createBody(runId, n),
      });
      if (response.statusCode !== 202) throw new Error(`filing ${n}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The PostgreSQL backends serving this database, by pid (the pool's connections). */
async function backendPids(): Promise<number[]> {
  if (!baseUrl) return [];
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  await client.end();
  return rows.map((r) => r.pid);
}

/** utime + stime of `pids`, in µs (`/proc/<pid>/stat` fields 14 and 15, in clock ticks of 10 ms). */
function backendCpuUs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // A backend that ended is not counted (the pool keeps its connections while filings run).
    }
  }
  return ticks * 10_000;
}

try {
  await file(0, WARMUP);
  const pids = await backendPids();
  const serverBefore = backendCpuUs(pids);
  const cpuBefore = process.cpuUsage();
  const statementsBefore = statements;
  const started = performance.now();
  await file(WARMUP, COUNT);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const serverUs = backendCpuUs(pids) - serverBefore;
  const round = (n: number) => Math.round(n);
  console.log(
    JSON.stringify({
      dialect: database.dialect,
      filings: COUNT,
      concurrency: CONCURRENCY,
      filings_per_s: round(COUNT / seconds),
      node_cpu_us_per_filing: round((cpu.user + cpu.system) / COUNT),
      ...(baseUrl
        ? {
            server_cpu_us_per_filing: round(serverUs / COUNT),
            statements_per_filing: Number(((statements - statementsBefore) / COUNT).toFixed(2)),
            backends: pids.length,
          }
        : {}),
    }),
  );
} finally {
  await testApp.close();
  await database.drop();
}
