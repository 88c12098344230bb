import type { PostgresCursor, PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { statementName } from './prepared-query.js';

/**
 * The pool Kysely's PostgreSQL dialect is given: pg's pool, whose clients run the SQL of
 * {@link preparedQuery} queries as named (server-side prepared) statements. pg then sends Parse
 * once per connection and only Bind/Execute afterwards, sparing the server a parse and plan per
 * call (PostgreSQL re-plans a prepared statement itself when a table it reads changes). Any
 * other SQL, and cursors, pass unchanged. Each pg client gets one wrapper, so Kysely keeps one
 * connection object per client as it does for pg's own.
 */
export function namedStatementPool(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  function wrap(client: pg.PoolClient): PostgresPoolClient {
    return {
      query: ((text: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>) => {
        if (typeof text !== 'string') return client.query(text as unknown as pg.Submittable);
        const name = statementName(text);
        const values = parameters as unknown[];
        return name === undefined ? client.query(text, values) : client.query({ name, text, values });
      }) as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  }

  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}
