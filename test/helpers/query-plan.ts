/** The plan of the statement a repository runs, captured as it runs it, for index tests. */
import { CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { DB } from '../../src/db/schema.js';

/**
 * Runs `run` on a connection that captures its statements, then explains the last one (the
 * statement run: subqueries are transformed first, as they are built) with its parameters.
 * @returns `run`'s result and the plan as one line (`EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN` on PostgreSQL).
 */
export async function planOf<T>(database: Database, run: (db: Kysely<DB>) => Promise<T>): Promise<{ result: T; plan: string }> {
  const nodes: RootOperationNode[] = [];
  const capture: KyselyPlugin = {
    transformQuery: ({ node }) => (nodes.push(node), node),
    transformResult: async ({ result }) => result,
  };
  const result = await run(database.db.withPlugin(capture));
  const statement = database.db.getExecutor().compileQuery(nodes.at(-1) as RootOperationNode, { queryId: 'plan' });
  const explain = database.dialect === 'sqlite' ? 'explain query plan' : 'explain';
  const rows = await database.db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`${explain} ${statement.sql}`, [...statement.parameters]),
  );
  return { result, plan: rows.rows.map((r) => Object.values(r).join(' ')).join(' | ') };
}
