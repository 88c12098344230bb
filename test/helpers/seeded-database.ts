import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import type { DB } from '../../src/db/schema.js';
import type { TestDatabase } from './databases.js';

/** A migrated, seeded database for index and plan tests, and how to close and remove it. */
export interface SeededDatabase {
  readonly database: Database;
  close(): Promise<void>;
}

/**
 * Creates a database of `dialect`, migrates it, runs `seed` on it, gathers PostgreSQL's planner
 * statistics (`ANALYZE`), then opens it again on a new connection, as a restarted server does
 * (SQLite gathers its statistics then): the plans the tests check are the ones a running
 * service with that data would get.
 */
export async function openSeededDatabase(
  dialect: { name: 'sqlite' | 'postgres'; create: () => Promise<TestDatabase> },
  seed: (db: Kysely<DB>) => Promise<void>,
): Promise<SeededDatabase> {
  const target = await dialect.create();
  const seeding = createDatabase(target.url);
  await migrateToLatest(seeding.db);
  await seed(seeding.db);
  if (dialect.name === 'postgres') await sql`analyze`.execute(seeding.db);
  await seeding.close();
  const database = createDatabase(target.url);
  return {
    database,
    close: async () => {
      await database.close();
      await target.drop();
    },
  };
}

/**
 * A `privacy_requests` row as the index tests seed it: the service inserts none with deadline
 * marks (only updates set them), a test may, to seed requests whose notices went out.
 */
export type SeededRequest = Insertable<DB['privacy_requests']> &
  Partial<Pick<Selectable<DB['privacy_requests']>, 'due_soon_notified_at' | 'overdue_notified_at'>>;

/**
 * Request number `i` (`pr_00000012`, subject `u12`, client request `c12`): an access request
 * under GDPR by an okta subject, `queued` in workspace `w`, filed 2026-01-01 and due a month
 * later, with `fields` in place of any of those.
 */
export function requestRow(i: number, fields: Partial<SeededRequest> = {}): SeededRequest {
  const createdAt = fields.created_at ?? '2026-01-01T00:00:00.000Z';
  return {
    id: `pr_${String(i).padStart(8, '0')}`,
    workspace_id: 'w',
    request_type: 'access',
    scope: '["user"]',
    subject_provider: 'okta',
    subject_id: `u${i}`,
    client_request_id: `c${i}`,
    intake_ref: 'r',
    regulation: 'gdpr',
    status: 'queued',
    received_at: createdAt,
    created_at: createdAt,
    due_at: '2026-02-01T00:00:00.000Z',
    updated_at: createdAt,
    attempts: 0,
    ...fields,
  };
}

/** Inserts `rows` into `table` 500 at a time (SQLite's bound-parameter limit, with room). */
export async function insertInChunks<T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  rows: readonly object[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 500) as never)
      .execute();
}

/** {@link openSeededDatabase} seeded with `rows` of `privacy_requests` (the request index tests' world). */
export function openSeededRequests(
  dialect: Parameters<typeof openSeededDatabase>[0],
  rows: readonly SeededRequest[],
): Promise<SeededDatabase> {
  return openSeededDatabase(dialect, (db) => insertInChunks(db, 'privacy_requests', rows));
}
