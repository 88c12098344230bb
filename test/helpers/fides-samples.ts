/**
 * Ethyca Fides' own sample databases as connector targets (PRODUCT §2.17; test/fixtures/README.md):
 * the PostgreSQL sample (`postgres_sample.sql`, what Fides' integration tests load for
 * `postgres_example_test_dataset.yml`) and the MariaDB sample (`mariadb_example_schema.sql` +
 * `mariadb_example_data.sql`, for `mariadb_example_test_dataset.yml`), each loaded into a fresh
 * database with its own login, then dropped.
 *
 * Loaded as shipped, except (docs/connectors.md "Fides' samples"):
 * - PostgreSQL: nothing changed. The file runs as one multi-statement query in a fresh database
 *   (Fides creates the database separately too; its fixture drops `--` lines and splits on `;`,
 *   which the server does itself here).
 * - MariaDB schema: its first four statements (`CREATE USER 'mariadb_user'…`, two
 *   `GRANT ALL PRIVILEGES ON *.*` and `FLUSH PRIVILEGES`) are not run: they create a login with
 *   every privilege on the whole server, which a shared test server must not get; the test
 *   creates its own login with rights on its database only. And the database name
 *   `mariadb_example` (in `CREATE DATABASE IF NOT EXISTS` and `USE`) is replaced by a fresh name,
 *   so test files and runs never share a database. Every other statement, and the data file, run
 *   as shipped.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { MY_ADMIN, PG_ADMIN, type TargetKind } from './connector-targets.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/fides/${path}`, import.meta.url), 'utf8');

/** Fides' dataset file for each sample, as shipped (YAML text). */
export const FIDES_SAMPLE_DATASET: Record<TargetKind, string> = {
  postgres: fixture('dataset/postgres_example_test_dataset.yml'),
  mysql: fixture('dataset/mariadb_example_test_dataset.yml'),
};

/** A loaded Fides sample. `url` carries the password. */
export interface FidesSample {
  kind: TargetKind;
  url: string;
  password: string;
  database: string;
  /** Runs SQL as the administrator in the sample's database. */
  admin(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

/** The statements of the MariaDB schema file this helper does not run: the server-wide login and its grants. */
export const MARIADB_SKIPPED_STATEMENTS = [/^CREATE USER\b/i, /^GRANT ALL PRIVILEGES ON \*\.\*/i, /^FLUSH PRIVILEGES$/i];

/**
 * The MariaDB schema file as run here: without the statements {@link MARIADB_SKIPPED_STATEMENTS}
 * names, `mariadb_example` renamed to `database`. Statements are split on `;` at a line end (the
 * file has no `;` inside a statement).
 */
export function mariadbSchemaAsRun(database: string): string {
  const statements = fixture('docker/sample_data/mariadb_example_schema.sql')
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const kept = statements.filter((s) => !MARIADB_SKIPPED_STATEMENTS.some((re) => re.test(s)));
  if (statements.length - kept.length !== 4) throw new Error('the MariaDB schema file no longer starts as expected');
  return kept.map((s) => s.replaceAll(/\bmariadb_example\b/g, database)).join(';\n') + ';\n';
}

async function postgresSample(database: string, user: string, password: string): Promise<FidesSample> {
  const root = new pg.Client({ connectionString: PG_ADMIN });
  await root.connect();
  await root.query(`CREATE DATABASE ${database}`);
  await root.query(`CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
  const adminUrl = new URL(PG_ADMIN);
  adminUrl.pathname = `/${database}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(fixture('sample_project/postgres_sample.sql'));
  for (const schema of ['public', 'backup_schema']) {
    await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${user}`);
    await admin.query(`GRANT SELECT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${user}`);
  }
  return {
    kind: 'postgres',
    url: `postgres://${user}:${password}@127.0.0.1:${adminUrl.port || 5432}/${database}`,
    password,
    database,
    admin: async (sql, params = []) => (await admin.query(sql, params)).rows,
    drop: async () => {
      await admin.end();
      await root.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await root.query(`DROP ROLE IF EXISTS ${user}`);
      await root.end();
    },
  };
}

async function mariadbSample(database: string, user: string, password: string): Promise<FidesSample> {
  const root = await mysql.createConnection({ ...MY_ADMIN, multipleStatements: true });
  await root.query(mariadbSchemaAsRun(database));
  await root.query(`USE ${database}`);
  await root.query(fixture('docker/sample_data/mariadb_example_data.sql'));
  await root.query(`CREATE USER '${user}'@'%' IDENTIFIED BY '${password}'`);
  await root.query(`GRANT SELECT, UPDATE, DELETE ON ${database}.* TO '${user}'@'%'`);
  const admin = await mysql.createConnection({ ...MY_ADMIN, database });
  return {
    kind: 'mysql',
    url: `mysql://${user}:${password}@127.0.0.1:3306/${database}`,
    password,
    database,
    admin: async (sql, params = []) => {
      const [rows] = await admin.query(sql, params);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    drop: async () => {
      await admin.end();
      await root.query(`DROP DATABASE IF EXISTS ${database}`);
      await root.query(`DROP USER IF EXISTS '${user}'@'%'`);
      await root.end();
    },
  };
}

/** Loads Fides' sample for `kind` (`postgres`: PostgreSQL; `mysql`: MariaDB) into a fresh database. */
export async function createFidesSample(kind: TargetKind): Promise<FidesSample> {
  const suffix = randomBytes(4).toString('hex');
  const password = `Pw-${randomBytes(9).toString('base64url')}`;
  return kind === 'postgres'
    ? postgresSample(`fides_${suffix}`, `fides_app_${suffix}`, password)
    : mariadbSample(`fides_${suffix}`, `fides_app_${suffix}`, password);
}
