import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/executor.js';
import { byDialect } from '../../db/dialect.js';
import { preparedQuery } from '../../db/prepared-query.js';
import { claimDeliveryId, type DeliveryRow } from '../integrations/inbound-delivery.repository.js';
import type { ChangeEventTable } from '../../db/tables/change-event.table.js';

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

/**
 * Ids of the workspace's change events authored by any of the accounts (by the keyed pseudonyms
 * stored with the event, or by provider and account id), oldest first. Every branch of the OR
 * names the workspace, so each one is an index search (SQLite's multi-index OR, PostgreSQL's
 * BitmapOr); with `workspace_id = ?` outside the OR, SQLite searched the pseudonym index by
 * workspace alone and read every event of the workspace. `limit`: at most that many (the first).
 */
export async function findChangeEventIdsByAuthors(
  db: Executor,
  workspaceId: string,
  pseudonyms: readonly string[],
  accounts: readonly { provider: string; account_id: string }[],
  limit?: number,
): Promise<string[]> {
  const query = db
    .selectFrom('change_events')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('workspace_id', '=', workspaceId), eb('author_pseudonym', 'in', [...pseudonyms])]),
        ...accounts.map((a) =>
          eb.and([
            eb('workspace_id', '=', workspaceId),
            eb('provider', '=', a.provider.toLowerCase()),
            eb('author_account_id', '=', a.account_id),
          ]),
        ),
      ]),
    )
    .orderBy('id');
  const rows = await (limit === undefined ? query : query.limit(limit)).execute();
  return rows.map((r) => r.id);
}

/** The change events with these ids, in id order. */
export async function findChangeEventsByIds(db: Executor, ids: readonly string[]): Promise<ChangeEventRow[]> {
  return db
    .selectFrom('change_events')
    .selectAll()
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
}

/**
 * Makes change events anonymous: author columns null, and the title too when `title` is true.
 * The event and its policy decision stay.
 */
export async function anonymizeChangeEvents(db: Executor, ids: readonly string[], title: boolean): Promise<void> {
  if (ids.length === 0) return;
  const author = { author_account_id: null, author_login: null, author_pseudonym: null };
  await db
    .updateTable('change_events')
    .set(title ? { ...author, title: null } : author)
    .where('id', 'in', [...ids])
    .execute();
}
