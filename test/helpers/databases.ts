import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A database for one test file: its URL and how to remove it afterwards. */
export interface TestDatabase {
  readonly dialect: 'sqlite' | 'postgres';
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh SQLite file in a temporary folder. */
export function sqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'privacy-test-'));
  return {
    dialect: 'sqlite',
    url: `sqlite:${join(dir, 'test.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh schema on `TEST_DATABASE_URL`, selected through the connection's search_path. */
export async function postgresDatabase(baseUrl: string): Promise<TestDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dialect: 'postgres',
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * The dialects a suite runs on: SQLite always; PostgreSQL when `TEST_DATABASE_URL` is set
 * (scripts/run-tests.mjs makes it mandatory under CI=true).
 */
export function dialects(): { name: 'sqlite' | 'postgres'; create: () => Promise<TestDatabase> }[] {
  const pgUrl = process.env.TEST_DATABASE_URL;
  return [
    { name: 'sqlite', create: async () => sqliteDatabase() },
    ...(pgUrl ? [{ name: 'postgres' as const, create: () => postgresDatabase(pgUrl) }] : []),
  ];
}
