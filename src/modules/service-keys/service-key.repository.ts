import type { Executor } from '../../db/executor.js';

/** Stores `value` under `name` unless a key of that name exists (a concurrent first start wins). */
export async function insertKeyUnlessPresent(
  db: Executor,
  row: { name: string; value: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('service_keys')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * The stored value of key `name`.
 * @throws NoResultError when there is none.
 */
export async function keyValue(db: Executor, name: string): Promise<string> {
  return (await db.selectFrom('service_keys').select('value').where('name', '=', name).executeTakeFirstOrThrow()).value;
}
