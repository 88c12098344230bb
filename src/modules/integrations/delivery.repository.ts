import type { Executor } from '../../db/executor.js';

/**
 * Records a delivery id for an integration unless it is already recorded.
 * @returns null when recorded now, else the outcome stored by the first delivery.
 */
export async function claimDelivery(
  db: Executor,
  row: { integration_id: string; delivery_id: string; received_at: string; expires_at: string; outcome: string },
): Promise<string | null> {
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['integration_id', 'delivery_id']).doNothing())
    .returning('delivery_id')
    .executeTakeFirst();
  if (inserted) return null;
  const existing = await db
    .selectFrom('webhook_deliveries')
    .select('outcome')
    .where('integration_id', '=', row.integration_id)
    .where('delivery_id', '=', row.delivery_id)
    .executeTakeFirst();
  return existing?.outcome ?? '{}';
}
