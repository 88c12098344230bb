/**
 * Bulk inserts for the growth benchmark's seed, one code path per engine: SQLite through one
 * prepared INSERT run for every row inside one transaction per batch (better-sqlite3, the only
 * connection: the service is stopped while seeding); PostgreSQL through one
 * `INSERT … SELECT * FROM unnest($1::text[], $2::int[], …)` statement per batch, so a batch of
 * thousands of rows is one round trip and a handful of parameters.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

/** A column of a bulk insert: its name and its PostgreSQL array element type. */
export interface Column {
  name: string;
  type: 'text' | 'integer';
}

/** One table's rows, column-major order as in `columns`. Values: string, number or null. */
export type Row = (string | number | null)[];

/** Where the rows go: a SQLite file or a PostgreSQL URL (its search_path selects the schema). */
export interface BulkWriter {
  insert(table: string, columns: readonly Column[], rows: readonly Row[]): Promise<void>;
  /** Runs one SQL statement without parameters (ANALYZE, a checkpoint). */
  exec(statement: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteWriter(path: string): BulkWriter {
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const statements = new Map<string, SQLite.Statement>();
  return {
    async insert(table, columns, rows) {
      const text = `insert into ${table} (${columns.map((c) => c.name).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      const prepared = statement;
      sqlite.transaction(() => {
        for (const row of rows) prepared.run(row);
      })();
    },
    async exec(statement) {
      sqlite.exec(statement);
    },
    async close() {
      sqlite.close();
    },
  };
}

async function postgresWriter(url: string): Promise<BulkWriter> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // The seed is reproducible from its generator; a crash mid-seed loses nothing worth an fsync.
  await client.query('set synchronous_commit = off');
  return {
    async insert(table, columns, rows) {
      if (rows.length === 0) return;
      const arrays = columns.map((_, i) => rows.map((row) => row[i] ?? null));
      const unnest = columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
      await client.query(
        `insert into ${table} (${columns.map((c) => c.name).join(', ')}) select * from unnest(${unnest})`,
        arrays,
      );
    },
    async exec(statement) {
      await client.query(statement);
    },
    async close() {
      await client.end();
    },
  };
}

/** Opens a writer on `databaseUrl` (`sqlite:PATH` or `postgres://…`). */
export async function openBulkWriter(databaseUrl: string): Promise<BulkWriter> {
  if (databaseUrl.startsWith('sqlite:')) return sqliteWriter(databaseUrl.slice('sqlite:'.length));
  return postgresWriter(databaseUrl);
}

/** Shorthand for a column list: names, with the integer ones named in `integers`. */
export function columns(names: readonly string[], integers: readonly string[] = []): Column[] {
  return names.map((name) => ({ name, type: integers.includes(name) ? 'integer' : 'text' }));
}
