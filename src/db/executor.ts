import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

/** What every repository function takes first: the database, or a transaction on it. */
export type Executor = Kysely<DB> | Transaction<DB>;
