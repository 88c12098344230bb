/** Where a needle (an e-mail, a name, a marker) is stored: every table's values, and SQLite's own files. */
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { TestApp } from './app.js';

/** Every table of the current database (SQLite schema, or the connection's PostgreSQL schema). */
export async function tableNames(t: TestApp): Promise<string[]> {
  const db = t.services.database.db;
  const query =
    t.services.database.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  return (await query.execute(db)).rows.map((r) => r.name);
}

/** `table.column` of every value in the database that contains one of `needles`. */
export async function findInTables(t: TestApp, needles: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of await tableNames(t)) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.services.database.db)).rows;
    for (const row of rows)
      for (const [column, value] of Object.entries(row))
        for (const needle of needles) if (String(value).includes(needle)) found.push(`${table}.${column}: ${needle}`);
  }
  return found;
}

/** The needles found in the raw bytes of the SQLite file and its `-wal` (UTF-8). */
export function findInFiles(path: string, needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of [path, `${path}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (const needle of needles) if (bytes.includes(Buffer.from(needle, 'utf8'))) found.push(`${file}: ${needle}`);
  }
  return found;
}
