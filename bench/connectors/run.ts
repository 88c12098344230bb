/**
 * The connector bench (issue 24, PRODUCT §2.14): access and deletion per request through
 * `runConnectorTask`, on a PostgreSQL and a MariaDB target of BENCH_CONNECTOR_CUSTOMERS customers
 * and BENCH_CONNECTOR_ORDERS orders (foreign key indexed), beside the same statements run
 * directly through the driver in the same run (bench/connectors/baseline.ts), interleaved
 * request by request. Prints median and p99 ms, statements per request and the ratio to the
 * baseline (goal: within 1.5×). Then, per service store, a one-database request through the
 * whole service on an idle service: filed → completed, the task's own part, and the same
 * statements by hand (bench/connectors/service-flow.ts; issue 32 item 9: under 1 s, within 2×).
 * `--quick`: a small target and few requests, for CI. It fails only when a run errs or finds
 * the wrong rows, never on the goal.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseAllowedHosts } from '../../src/lib/allowed-hosts.js';
import { readDataset, runConnectorTask } from '../../src/modules/connectors/connectors.js';
import { baselineAccess, baselineDeletion } from './baseline.js';
import { benchServiceFlow, type Store } from './service-flow.js';
import { BENCH_DATASET, createBenchTarget, type Engine } from './targets.js';

const quick = process.argv.includes('--quick');
const customers = Number(process.env.BENCH_CONNECTOR_CUSTOMERS ?? (quick ? 2_000 : 100_000));
const orders = Number(process.env.BENCH_CONNECTOR_ORDERS ?? (quick ? 20_000 : 1_000_000));
const requests = Number(process.env.BENCH_CONNECTOR_REQUESTS ?? (quick ? 20 : 300));
const engines = (process.env.BENCH_CONNECTOR_ENGINES ?? 'postgres,mysql').split(',') as Engine[];
const flowRequests = Number(process.env.BENCH_CONNECTOR_FLOW_REQUESTS ?? (quick ? 10 : 50));
const stores = (process.env.BENCH_CONNECTOR_STORES ?? 'sqlite,postgres').split(',').filter(Boolean) as Store[];
const read = readDataset(BENCH_DATASET);
if (!('dataset' in read)) throw new Error(`bench dataset: ${JSON.stringify(read.problems)}`);
const dataset = read.dataset;
const limits = { statementTimeoutMs: 10_000, maxRows: 1000 };
const allowedHosts = parseAllowedHosts('127.0.0.1').hosts;

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const stats = (xs: number[]) => ({ median: quantile(xs, 0.5), p99: quantile(xs, 0.99) });

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

interface Row {
  engine: Engine;
  operation: 'access' | 'deletion';
  connector: { median: number; p99: number };
  baseline: { median: number; p99: number };
  statements: number;
  baselineStatements: number;
}

/** Filed → completed through the service, per service store (bench/connectors/service-flow.ts). */
interface FlowRow {
  engine: Engine;
  store: Store;
  filed: { median: number; p99: number };
  task: { median: number; p99: number };
  byHand: { median: number; p99: number };
}
const flows: FlowRow[] = [];

async function benchEngine(engine: Engine): Promise<Row[]> {
  const seedStart = performance.now();
  const target = await createBenchTarget(engine, customers, orders);
  console.log(`${engine}: seeded ${customers} customers, ${orders} orders in ${Math.round(performance.now() - seedStart)} ms`);
  try {
    const input = (email: string, requestType: 'access' | 'deletion') => ({
      kind: engine,
      url: target.url,
      system: 'bench',
      dataset,
      requestType,
      categories: ['user'],
      identities: { email: [email] },
      hmacKey: 'bench-key',
      limits,
      allowedHosts,
    });
    const pick = (i: number) => `c${1 + ((i * 7919) % customers)}@example.com`;
    const rows: Row[] = [];
    for (const operation of ['access', 'deletion'] as const) {
      const ours: number[] = [];
      const base: number[] = [];
      let statements = 0;
      let baselineStatements = 0;
      for (let i = 0; i < requests; i++) {
        // Deletion: each run takes its own customers (a masked one is not found again).
        const [ms, result] = await timed(() => runConnectorTask(input(pick(2 * i), operation)));
        const found =
          result.type === 'access'
            ? result.collections.customer?.length
            : result.type === 'erasure'
              ? result.collections.customer?.masked
              : 0;
        if (found !== 1) throw new Error(`${engine} ${operation}: the connector found ${found} customers for one e-mail`);
        ours.push(ms);
        statements = result.statements;
        const email = operation === 'access' ? pick(2 * i) : pick(2 * i + 1);
        const [baseMs, n] = await timed(() =>
          (operation === 'access' ? baselineAccess : baselineDeletion)(engine, target.url, dataset, email, limits.maxRows),
        );
        base.push(baseMs);
        baselineStatements = n;
      }
      rows.push({ engine, operation, connector: stats(ours), baseline: stats(base), statements, baselineStatements });
    }
    // Customers the rows above did not take (deletion masked 2 × requests of them from pick(0) on).
    const unused = (i: number) => pick(2 * requests + i);
    for (const store of stores) {
      const t = await benchServiceFlow(
        store,
        { engine, url: target.url, drop: async () => undefined },
        dataset,
        unused,
        flowRequests,
      );
      flows.push({ engine, store, filed: stats(t.filed), task: stats(t.task), byHand: stats(t.byHand) });
    }
    return rows;
  } finally {
    await target.drop();
  }
}

const f = (x: number) => x.toFixed(2);
const all: Row[] = [];
for (const engine of engines) all.push(...(await benchEngine(engine)));
console.log(`\n${requests} requests per row, ${customers} customers, ${orders} orders (median / p99 ms; statements per request)`);
console.log('| engine | operation | connector | baseline (driver) | ratio (median) | statements (connector / baseline) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of all)
  console.log(
    `| ${r.engine === 'mysql' ? 'MariaDB' : 'PostgreSQL'} | ${r.operation} | ${f(r.connector.median)} / ${f(r.connector.p99)} | ${f(r.baseline.median)} / ${f(r.baseline.p99)} | ${(r.connector.median / r.baseline.median).toFixed(2)}× | ${r.statements} / ${r.baselineStatements} |`,
  );
console.log(
  `\n${flowRequests} access requests per row through the service, filed one at a time on an idle service (median / p99 ms)`,
);
console.log(
  '| engine | store | filed → completed | task created → completed | same statements by hand | task / by hand (median) |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of flows)
  console.log(
    `| ${r.engine === 'mysql' ? 'MariaDB' : 'PostgreSQL'} | ${r.store} | ${f(r.filed.median)} / ${f(r.filed.p99)} | ${f(r.task.median)} / ${f(r.task.p99)} | ${f(r.byHand.median)} / ${f(r.byHand.p99)} | ${(r.task.median / r.byHand.median).toFixed(2)}× |`,
  );
mkdirSync('.bench', { recursive: true });
writeFileSync('.bench/connectors.json', JSON.stringify({ customers, orders, requests, rows: all, flowRequests, flows }, null, 2));
