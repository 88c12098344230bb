import type { Executor } from '../../db/executor.js';
import { preparedQuery } from '../../db/prepared-query.js';

type DeliveryRow = { integration_id: string; delivery_id: string; received_at: string; expires_at: string; outcome: string };

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

/**
 * Records a delivery id for an integration unless it is already recorded.
 * @returns null when recorded now, else the outcome stored by the first delivery.
 */
export async function claimDelivery(db: Executor, row: DeliveryRow): Promise<string | null> {
  if ((await insertUnlessKnown(db, row)).rows.length > 0) return null;
  const [existing] = (await selectOutcome(db, { integration_id: row.integration_id, delivery_id: row.delivery_id })).rows;
  return existing?.outcome ?? '{}';
}
