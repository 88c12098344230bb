import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { byDialect } from '../../db/dialect.js';
import { skipLocked, tryLockKeySql } from '../../db/locking.js';
import { multiRowInsert } from '../../db/multi-row-insert.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { IdempotencyTable } from '../../db/tables/idempotency.table.js';

export type IdempotencyRow = Selectable<IdempotencyTable>;

const RECORD_COLUMNS = [
  'principal_id',
  'idempotency_key',
  'fingerprint',
  'state',
  'response_status',
  'response_location',
  'response_body',
  'created_at',
  'expires_at',
] as const;

/** A `completed` record to store: its key, and the response it replays. */
export type CompletedRecord = Pick<
  IdempotencyRow,
  'principal_id' | 'idempotency_key' | 'fingerprint' | 'created_at' | 'expires_at'
> & {
  response: { status: number; location: string | null; body: string };
};

const insertRecordRows = multiRowInsert<IdempotencyRow>('idempotency_records', RECORD_COLUMNS);

/**
 * Inserts `completed` records with their responses, in the transaction that made the effects:
 * one multi-row INSERT for a whole write batch's records (db/multi-row-insert.ts), instead of
 * one statement per record. Does nothing for none.
 * @throws a unique violation when a (principal, key) exists (the statement, and so the batch, fails).
 */
export async function insertCompletedRecords(db: Executor, records: readonly CompletedRecord[]): Promise<void> {
  await insertRecordRows(
    db,
    records.map(({ response, ...key }) => ({
      ...key,
      state: 'completed',
      response_status: response.status,
      response_location: response.location,
      response_body: response.body,
    })),
  );
}

const selectRecord = preparedQuery<{ principal_id: string; idempotency_key: string }, IdempotencyRow>(
  ['principal_id', 'idempotency_key'],
  (db, p) =>
    db
      .selectFrom('idempotency_records')
      // Named columns, not `*`: a prepared statement's result type must not change under it.
      .select(RECORD_COLUMNS)
      .where('principal_id', '=', p.principal_id)
      .where('idempotency_key', '=', p.idempotency_key),
);

/** The record for (principal, key), or undefined. */
export async function findRecord(db: Executor, principalId: string, key: string): Promise<IdempotencyRow | undefined> {
  return (await selectRecord(db, { principal_id: principalId, idempotency_key: key })).rows[0];
}

/**
 * A look at the record before the unit of work that stores the key, outside any transaction.
 * SQLite: the record (a read never waits for the one write lock, so a replay or conflict
 * answers without joining a write batch). PostgreSQL: undefined without a round trip, since
 * {@link findRecordsOrLockKeys} reads it in the transaction in the same statement as the lock.
 */
export const peekRecord = byDialect<[principalId: string, key: string], Promise<IdempotencyRow | undefined>>({
  sqlite: findRecord,
  postgres: async () => undefined,
});

/** A key a write batch claims at its commit, and the name of its lock (`tryLockKey`). */
export interface KeyToClaim {
  principalId: string;
  key: string;
  lockName: string;
}

type BatchLockParams = { principal_ids: string[]; idempotency_keys: string[]; lock_names: string[] };
type RecordOrLock = { [C in (typeof RECORD_COLUMNS)[number]]: IdempotencyRow[C] | null } & { locked: boolean | null };

const selectRecordsOrLocks = preparedQuery<BatchLockParams, RecordOrLock>(
  ['principal_ids', 'idempotency_keys', 'lock_names'],
  (db, p) =>
    db
      // One row per key, in the keys' order, whatever the table holds: the record's columns
      // (nulls when there is none) and, only when there is none, the outcome of taking the
      // key's lock. Arrays, not a VALUES list: one statement text (one prepared statement) for
      // every batch size.
      .selectFrom(
        sql`unnest(${p.principal_ids}::text[], ${p.idempotency_keys}::text[], ${p.lock_names}::text[]) with ordinality`.as<'k'>(
          sql`k(principal_id, idempotency_key, lock_name, ord)`,
        ),
      )
      .leftJoin('idempotency_records as r', (join) =>
        join.on(sql<boolean>`r.principal_id = k.principal_id and r.idempotency_key = k.idempotency_key`),
      )
      .select(RECORD_COLUMNS.map((column) => `r.${column}` as const))
      .select(
        sql<boolean | null>`case when r.principal_id is null then ${tryLockKeySql(sql.ref('k.lock_name'))} end`.as('locked'),
      )
      .orderBy(sql`k.ord`),
);

/** What {@link findRecordsOrLockKeys} found for one key. */
export type RecordOrLocked = { record: IdempotencyRow } | { record: undefined; locked: boolean };

/**
 * Inside the transaction that will store the keys (a write batch's, at its commit): for each
 * key, its record if there is one; if there is none, the key's transaction-scoped lock
 * (`tryLockKey(lockName)`). PostgreSQL: every key of the batch in ONE statement, one round trip
 * (instead of one per filing). SQLite: a read per key (no round trip; the transaction already
 * holds the one write lock, so a key without a record is always `locked`).
 *
 * @returns one answer per key, in `keys`' order: `{ record }` when a record exists (no lock
 *   taken: a replay must not block another replay), else `{ locked }`: false when another
 *   transaction holds the lock.
 */
export const findRecordsOrLockKeys = byDialect<[keys: readonly KeyToClaim[]], Promise<RecordOrLocked[]>>({
  sqlite: async (tx, keys) => {
    const found: RecordOrLocked[] = [];
    for (const { principalId, key } of keys) {
      const record = await findRecord(tx, principalId, key);
      found.push(record ? { record } : { record: undefined, locked: true });
    }
    return found;
  },
  postgres: async (tx, keys) => {
    const { rows } = await selectRecordsOrLocks(tx, {
      principal_ids: keys.map((k) => k.principalId),
      idempotency_keys: keys.map((k) => k.key),
      lock_names: keys.map((k) => k.lockName),
    });
    return rows.map(({ locked, ...record }) =>
      record.principal_id === null ? { record: undefined, locked: locked === true } : { record: record as IdempotencyRow },
    );
  },
});

/** Deletes the record if it is still the one created at `createdAt` (so a newer claim survives). */
export async function deleteRecord(db: Executor, principalId: string, key: string, createdAt: string): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('principal_id', '=', principalId)
    .where('idempotency_key', '=', key)
    .where('created_at', '=', createdAt)
    .execute();
}

/**
 * Deletes at most `limit` idempotency records past `expires_at` (≤ `now`) whose response is
 * stored (`completed`), or whose `in_flight` claim is older than `inFlightBefore` (its process
 * died; it would be taken over anyway). A live in-flight claim is never touched.
 *
 * @returns how many rows were deleted.
 */
export async function deleteExpiredIdempotencyRecords(
  db: Executor,
  now: string,
  inFlightBefore: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_records')
    .where(({ eb, refTuple, selectFrom }) => {
      const batch = skipLocked(
        db,
        selectFrom('idempotency_records')
          .select(['principal_id', 'idempotency_key'])
          .where('expires_at', '<=', now)
          .where((w) =>
            w.or([w('state', '=', 'completed'), w.and([w('state', '=', 'in_flight'), w('created_at', '<=', inFlightBefore)])]),
          )
          .limit(limit),
      );
      return eb(refTuple('principal_id', 'idempotency_key'), 'in', batch.$asTuple('principal_id', 'idempotency_key'));
    })
    .where('expires_at', '<=', now)
    .where((w) => w.or([w('state', '=', 'completed'), w('created_at', '<=', inFlightBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
