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

/**
 * A fresh database beside `TEST_DATABASE_URL`'s (named after it: `<name>_<hex>`), holding one
 * schema selected through the connection's search_path (as an operator's `?options=-c
 * search_path=…` does). A database of its own, not only a schema: Kysely's migrator reads the
 * catalog of every schema of its database, and a schema another test file drops meanwhile fails
 * that read (3F000) when files run side by side. Dropped WITH (FORCE): a connection the test left
 * open does not keep it.
 */
export async function postgresDatabase(baseUrl: string): Promise<TestDatabase> {
  const suffix = randomBytes(6).toString('hex');
  const base = new URL(baseUrl);
  const name = `${decodeURIComponent(base.pathname.slice(1)) || 'test'}_${suffix}`;
  if (!/^[a-z0-9_]{1,63}$/.test(name))
    throw new Error(`TEST_DATABASE_URL's database name gives an unusable test database name: ${name}`);
  const schema = `t_${suffix}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const owner = new pg.Client({ connectionString: url.toString() });
  await owner.connect();
  try {
    await owner.query(`create schema ${schema}`);
  } finally {
    await owner.end();
  }
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dialect: 'postgres',
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
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
