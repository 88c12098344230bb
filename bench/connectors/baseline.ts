/**
 * The bench's baseline: the connector's own statements (same text, built by its statement
 * builders), run directly through the driver with the same connection-per-request and the same
 * transaction control, without the connector's traversal, planning, masking and checks.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Dataset } from '../../src/modules/connectors/dataset.types.js';
import { DIALECTS } from '../../src/modules/connectors/sql-dialect.fns.js';
import { selectRows, updateRows } from '../../src/modules/connectors/statements.fns.js';
import type { Engine } from './targets.js';

type Run = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

async function withConnection<T>(engine: Engine, url: string, fn: (run: Run) => Promise<T>): Promise<T> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: url, statement_timeout: 10_000 });
    await client.connect();
    try {
      return await fn(async (sql, params) => (await client.query(sql, params)).rows);
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection({
    uri: url,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  });
  try {
    // The connector's session set-up: its version check and two SETs.
    await connection.query('SELECT VERSION() AS v');
    await connection.query('SET SESSION max_statement_time = 10');
    await connection.query('SET SESSION innodb_lock_wait_timeout = 10');
    return await fn(async (sql, params) => {
      if (params.length === 0) return (await connection.query(sql))[0] as Record<string, unknown>[];
      const [rows] = await connection.execute(sql, params as mysql.ExecuteValues);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    });
  } finally {
    await connection.end();
  }
}

async function readPass(engine: Engine, run: Run, dataset: Dataset, email: string, cap: number) {
  const d = DIALECTS[engine];
  const [customer, orders] = dataset.collections as [Dataset['collections'][0], Dataset['collections'][0]];
  await run(d.beginReadOnly, []);
  const c = selectRows(d, dataset, customer, [{ column: 'email', values: [email] }], cap)!;
  const found = await run(c.sql, [...c.params]);
  const o = selectRows(d, dataset, orders, [{ column: 'customer_id', values: found.map((r) => r.id) }], cap);
  const rows = o ? await run(o.sql, [...o.params]) : [];
  await run('COMMIT', []);
  return { customers: found, orders: rows };
}

/** Access for one e-mail: read-only transaction, the two SELECTs. @returns statements run. */
export async function baselineAccess(engine: Engine, url: string, dataset: Dataset, email: string, cap: number): Promise<number> {
  return withConnection(engine, url, async (run) => {
    await readPass(engine, run, dataset, email, cap);
    return engine === 'postgres' ? 4 : 7;
  });
}

/** Deletion for one e-mail: the read pass, then orders and customer masked, one transaction each. */
export async function baselineDeletion(
  engine: Engine,
  url: string,
  dataset: Dataset,
  email: string,
  cap: number,
): Promise<number> {
  const d = DIALECTS[engine];
  return withConnection(engine, url, async (run) => {
    const found = await readPass(engine, run, dataset, email, cap);
    let statements = engine === 'postgres' ? 4 : 7;
    if (found.orders.length > 0) {
      const u = updateRows(d, dataset, 'orders', [['gift_message', null]], {
        columns: ['id'],
        rows: found.orders.map((r) => [r.id]),
      });
      await run(d.beginWrite, []);
      await run(u.sql, [...u.params]);
      await run('COMMIT', []);
      statements += 3;
    }
    for (const c of found.customers) {
      const u = updateRows(
        d,
        dataset,
        'customer',
        [
          ['email', `${Math.random().toString(36).slice(2, 18)}@masked.invalid`],
          ['full_name', null],
        ],
        { columns: ['id'], rows: [[c.id]] },
      );
      await run(d.beginWrite, []);
      await run(u.sql, [...u.params]);
      await run('COMMIT', []);
      statements += 3;
    }
    return statements;
  });
}
