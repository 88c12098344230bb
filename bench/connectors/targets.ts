/**
 * The connector bench's target databases: `customers` customers and `orders` orders (foreign key
 * indexed) on PostgreSQL (127.0.0.1:5432) and MariaDB (127.0.0.1:3306), seeded in the database
 * server itself (generate_series, the Sequence engine), dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type Engine = 'postgres' | 'mysql';

export interface BenchTarget {
  engine: Engine;
  url: string;
  drop(): Promise<void>;
}

const PG_ADMIN = process.env.CONNECTOR_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The dataset the bench registers: a customer found by e-mail, their orders one hop away. */
export const BENCH_DATASET = {
  fides_key: 'bench',
  collections: [
    {
      name: 'customer',
      fields: [
        { name: 'id', fides_meta: { primary_key: true } },
        {
          name: 'email',
          data_categories: ['user.contact.email'],
          fides_meta: {
            identity: 'email',
            masking_strategy_override: {
              strategy: 'random_string_rewrite',
              configuration: { length: 16, format_preservation: { suffix: '@masked.invalid' } },
            },
          },
        },
        { name: 'full_name', data_categories: ['user.name'] },
      ],
    },
    {
      name: 'orders',
      fields: [
        { name: 'id', fides_meta: { primary_key: true } },
        { name: 'customer_id', fides_meta: { references: [{ dataset: 'bench', field: 'customer.id', direction: 'from' }] } },
        { name: 'total_cents', data_categories: ['user.behavior.purchase_history'], fides_meta: { read_only: true } },
        { name: 'gift_message', data_categories: ['user.content.private'] },
      ],
    },
  ],
};

async function postgresTarget(customers: number, orders: number): Promise<BenchTarget> {
  const name = `bench_conn_${randomBytes(4).toString('hex')}`;
  const root = new pg.Client({ connectionString: PG_ADMIN });
  await root.connect();
  await root.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  await db.query('CREATE TABLE customer (id integer PRIMARY KEY, email varchar(120) NOT NULL UNIQUE, full_name varchar(200))');
  await db.query(
    'CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer NOT NULL REFERENCES customer (id), total_cents integer NOT NULL, gift_message varchar(200))',
  );
  await db.query(`INSERT INTO customer SELECT g, 'c' || g || '@example.com', 'Customer ' || g FROM generate_series(1, $1) g`, [
    customers,
  ]);
  await db.query(`INSERT INTO orders SELECT g, 1 + g % $2, g % 9000, 'gift ' || g FROM generate_series(1, $1) g`, [
    orders,
    customers,
  ]);
  await db.query('CREATE INDEX orders_customer ON orders (customer_id)');
  await db.query('ANALYZE');
  await db.end();
  return {
    engine: 'postgres',
    url: url.toString(),
    drop: async () => {
      await root.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await root.end();
    },
  };
}

async function mysqlTarget(customers: number, orders: number): Promise<BenchTarget> {
  const name = `bench_conn_${randomBytes(4).toString('hex')}`;
  const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
  await root.query(`CREATE DATABASE ${name}`);
  await root.query(`USE ${name}`);
  await root.query('CREATE TABLE customer (id integer PRIMARY KEY, email varchar(120) NOT NULL UNIQUE, full_name varchar(200))');
  await root.query(
    'CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer NOT NULL, total_cents integer NOT NULL, gift_message varchar(200), FOREIGN KEY (customer_id) REFERENCES customer (id))',
  );
  // The Sequence engine (built into MariaDB) makes the rows inside the server.
  await root.query(
    `INSERT INTO customer SELECT seq, CONCAT('c', seq, '@example.com'), CONCAT('Customer ', seq) FROM seq_1_to_${customers}`,
  );
  await root.query(
    `INSERT INTO orders SELECT seq, 1 + seq % ${customers}, seq % 9000, CONCAT('gift ', seq) FROM seq_1_to_${orders}`,
  );
  await root.query('ANALYZE TABLE customer, orders');
  return {
    engine: 'mysql',
    url: `mysql://root@127.0.0.1:3306/${name}`,
    drop: async () => {
      await root.query(`DROP DATABASE IF EXISTS ${name}`);
      await root.end();
    },
  };
}

/** Creates and seeds a target on `engine`. */
export function createBenchTarget(engine: Engine, customers: number, orders: number): Promise<BenchTarget> {
  return engine === 'postgres' ? postgresTarget(customers, orders) : mysqlTarget(customers, orders);
}
