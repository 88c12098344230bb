import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { byDialect } from '../../db/dialect.js';
import { preparedQuery } from '../../db/prepared-query.js';
import { claimDeliveryId, type DeliveryRow } from '../integrations/delivery.repository.js';
import type { ChangeEventTable } from './change-event.table.js';

export type ChangeEventRow = Selectable<ChangeEventTable>;

const CHANGE_EVENT_COLUMNS = [
  'id',
  'workspace_id',
  'integration_id',
  'provider',
  'repository',
  'repository_display',
  'number',
  'action',
  'head_sha',
  'title',
  'author_account_id',
  'author_login',
  'author_pseudonym',
  'decision',
  'policy_version',
  'received_at',
] as const satisfies readonly (keyof ChangeEventRow)[];

const insertRow = preparedQuery<ChangeEventRow, never>(CHANGE_EVENT_COLUMNS, (db, row) =>
  db.insertInto('change_events').values(row),
);

/** Inserts a change event (every column of `row`; `repository_display` null when absent). */
export async function insertChangeEvent(
  db: Executor,
  row: Omit<ChangeEventRow, 'repository_display'> & { repository_display?: string | null },
): Promise<void> {
  await insertRow(db, { ...row, repository_display: row.repository_display ?? null });
}

/** A change event and the delivery that brought it (same integration, same received_at). */
type EventOfDelivery = ChangeEventRow & Pick<DeliveryRow, 'delivery_id' | 'expires_at' | 'outcome'>;

/**
 * PostgreSQL: claims the delivery id and inserts the event only when the claim is new, in one
 * statement (one round trip instead of two). Every event column is a parameter; `number` is cast,
 * as a parameter in a select list is text.
 */
const claimAndInsertOnPostgres = preparedQuery<EventOfDelivery, { id: string }>(
  [...CHANGE_EVENT_COLUMNS, 'delivery_id', 'expires_at', 'outcome'],
  (db, p) =>
    db
      .with('claimed', (qb) =>
        qb
          .insertInto('webhook_deliveries')
          .values({
            integration_id: p.integration_id,
            delivery_id: p.delivery_id,
            received_at: p.received_at,
            expires_at: p.expires_at,
            outcome: p.outcome,
          })
          .onConflict((oc) => oc.columns(['integration_id', 'delivery_id']).doNothing())
          .returning('delivery_id'),
      )
      .insertInto('change_events')
      .columns(CHANGE_EVENT_COLUMNS)
      .expression((eb) =>
        eb
          .selectFrom('claimed')
          .select(
            CHANGE_EVENT_COLUMNS.map((column) =>
              (column === 'number' ? sql`cast(${p[column]} as integer)` : sql`${p[column]}`).as(column),
            ),
          ),
      )
      .returning('id'),
);

/**
 * Records `row` as brought by delivery `delivery_id` unless that delivery id is already recorded
 * for the integration (a redelivery): the delivery row (with `outcome`, the answer to repeat) and
 * the event are written together, or neither is.
 *
 * @returns true when both were written; false for a redelivery (nothing written).
 */
export const insertForNewDelivery = byDialect<[row: EventOfDelivery], Promise<boolean>>({
  // One statement (a CTE claims the delivery id and inserts the event): one round trip.
  postgres: async (db, row) => (await claimAndInsertOnPostgres(db, row)).rows.length > 0,
  sqlite: async (db, row) => {
    const { delivery_id, expires_at, outcome, ...event } = row;
    const claim = { integration_id: row.integration_id, delivery_id, received_at: row.received_at, expires_at, outcome };
    if (!(await claimDeliveryId(db, claim))) return false;
    await insertRow(db, event);
    return true;
  },
});

/** A page of a workspace's change events, newest first, optionally of one repository. */
export async function listChangeEvents(
  db: Executor,
  filter: { workspaceId: string; repository?: string; before?: string; limit: number },
): Promise<ChangeEventRow[]> {
  let query = db.selectFrom('change_events').selectAll().where('workspace_id', '=', filter.workspaceId);
  if (filter.repository !== undefined) query = query.where('repository', '=', filter.repository);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}
