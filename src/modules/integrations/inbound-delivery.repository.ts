import type { Executor } from '../../db/executor.js';
import { skipLocked } from '../../db/locking.js';
import { preparedQuery } from '../../db/prepared-query.js';

/** The longest delivery id kept (`webhook_deliveries.delivery_id` is `varchar(300)`); a longer one is a 400. */
export const MAX_DELIVERY_ID_CHARS = 300;

/** A `webhook_deliveries` row. */
export type DeliveryRow = {
  integration_id: string;
  delivery_id: string;
  received_at: string;
  expires_at: string;
  outcome: string;
};

const insertUnlessKnown = preparedQuery<DeliveryRow, { delivery_id: string }>(
  ['integration_id', 'delivery_id', 'received_at', 'expires_at', 'outcome'],
  (db, row) =>
    db
      .insertInto('webhook_deliveries')
      .values(row)
      .onConflict((oc) => oc.columns(['integration_id', 'delivery_id']).doNothing())
      .returning('delivery_id'),
);

const selectOutcome = preparedQuery<{ integration_id: string; delivery_id: string }, { outcome: string }>(
  ['integration_id', 'delivery_id'],
  (db, key) =>
    db
      .selectFrom('webhook_deliveries')
      .select('outcome')
      .where('integration_id', '=', key.integration_id)
      .where('delivery_id', '=', key.delivery_id),
);

/** The outcome stored by the first delivery of this id, or `'{}'` when there is none. */
export async function deliveryOutcome(db: Executor, key: { integration_id: string; delivery_id: string }): Promise<string> {
  const [existing] = (await selectOutcome(db, key)).rows;
  return existing?.outcome ?? '{}';
}

/** Records a delivery id for an integration unless it is already recorded. @returns true when recorded now. */
export async function claimDeliveryId(db: Executor, row: DeliveryRow): Promise<boolean> {
  return (await insertUnlessKnown(db, row)).rows.length > 0;
}

/**
 * Deletes at most `limit` remembered webhook deliveries whose de-duplication window has passed
 * (`expires_at` ≤ `now`). A redelivery after that is recorded again.
 *
 * @returns how many rows were deleted.
 */
export async function deleteExpiredDeliveries(db: Executor, now: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where(({ eb, refTuple, selectFrom }) => {
      const batch = skipLocked(
        db,
        selectFrom('webhook_deliveries').select(['integration_id', 'delivery_id']).where('expires_at', '<=', now).limit(limit),
      );
      return eb(refTuple('integration_id', 'delivery_id'), 'in', batch.$asTuple('integration_id', 'delivery_id'));
    })
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
