import type { Kysely, SelectQueryBuilder } from 'kysely';
import { skipLocked } from '../../db/locking.js';
import type { DB } from '../../db/schema.js';
import type { OutboundMessageStatus } from '../../db/tables/outbound-event.table.js';
import { type ClaimCaps, type EndpointCandidates, pickFairly } from './fair-claim.fns.js';

/** A message claimed for delivery, with what its attempt needs from its endpoint. */
export interface ClaimedMessage {
  id: string;
  endpoint_id: string;
  workspace_id: string;
  payload: string;
  attempts: string;
  attempt_count: number;
  /** The lease this claim holds; recording the attempt requires it to still match. */
  lease_until: string;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: string | null;
  /** The endpoint's run of failures as of the claim (null: its last attempt succeeded). */
  failing_since: string | null;
}

/** The endpoint columns an attempt needs, read once per endpoint by the claim. */
type EndpointColumns = Pick<
  ClaimedMessage,
  'url' | 'secret_ciphertext' | 'previous_secret_ciphertext' | 'previous_secret_expires_at' | 'failing_since'
>;

/**
 * Claims up to `limit` pending messages due at `now` whose lease (if any) ran out, leasing them
 * until `leaseUntil` (issue 23 item 1, PRODUCT §2.8). Two statements, no transaction around them:
 * 1. per enabled endpoint (a disabled endpoint's messages are never claimed): when its oldest
 *    due, unleased message fell due, how many it has (counted up to `readPerEndpoint`), and how
 *    many of its messages are leased now (attempts in flight in any worker): index probes per
 *    endpoint, whatever the backlog or the delivered history;
 * 2. {@link pickFairly} shares the claim (per-endpoint cap, round-robin across workspaces and
 *    endpoints) and one `UPDATE … RETURNING` leases each chosen endpoint's oldest messages,
 *    checking again that each is pending, due and unleased (PostgreSQL: each endpoint's rows are
 *    locked `FOR UPDATE SKIP LOCKED`, so N workers never wait for each other). A message leased
 *    by another worker in between is not returned, so each claim is exactly-once; the
 *    per-endpoint cap may be passed by one claim racing another.
 * The attempt itself happens after the claim, outside any transaction; a worker that dies
 * mid-attempt leaves the lease to run out and another worker sends the message again
 * (at-least-once).
 */
export async function claimDueMessages(
  db: Kysely<DB>,
  now: string,
  leaseUntil: string,
  limit: number,
  perEndpoint = limit,
  capOf?: ClaimCaps['capOf'],
  /** Due messages counted per endpoint (the highest cap `capOf` answers); default `perEndpoint`. */
  readPerEndpoint = perEndpoint,
): Promise<ClaimedMessage[]> {
  if (limit <= 0) return [];
  const endpoints = await db
    .selectFrom('webhook_endpoints as e')
    .select([
      'e.id',
      'e.workspace_id',
      'e.url',
      'e.secret_ciphertext',
      'e.previous_secret_ciphertext',
      'e.previous_secret_expires_at',
      'e.failing_since',
    ])
    .select((eb) => {
      // The endpoint's due, unleased messages, oldest first: an index range.
      const due = () =>
        eb
          .selectFrom('outbound_messages as d')
          .whereRef('d.endpoint_id', '=', 'e.id')
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', now)
          .where((w) => w.or([w('d.lease_until', 'is', null), w('d.lease_until', '<=', now)]));
      return [
        due().select('d.next_attempt_at').orderBy('d.next_attempt_at').orderBy('d.id').limit(1).as('oldest_due'),
        eb
          .selectFrom(due().select('d.id').limit(Math.max(1, readPerEndpoint)).as('n'))
          .select((c) => c.fn.countAll<number>().as('n'))
          .as('due'),
        eb
          .selectFrom('outbound_messages as f')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('f.endpoint_id', '=', 'e.id')
          .where('f.lease_until', 'is not', null)
          .where('f.lease_until', '>', now)
          .where('f.status', '=', 'pending')
          .as('in_flight'),
      ];
    })
    .where('e.disabled_at', 'is', null)
    .execute();
  const candidates: EndpointCandidates[] = [];
  const columns = new Map<string, EndpointColumns>();
  for (const row of endpoints) {
    if (row.oldest_due === null) continue;
    candidates.push({
      endpoint_id: row.id,
      workspace_id: row.workspace_id,
      failing_since: row.failing_since,
      oldest_due: row.oldest_due,
      due: Number(row.due ?? 0),
      in_flight: Number(row.in_flight ?? 0),
    });
    columns.set(row.id, {
      url: row.url,
      secret_ciphertext: row.secret_ciphertext,
      previous_secret_ciphertext: row.previous_secret_ciphertext,
      previous_secret_expires_at: row.previous_secret_expires_at,
      failing_since: row.failing_since,
    });
  }
  const picked = pickFairly(candidates, { limit, perEndpoint, ...(capOf ? { capOf } : {}) });
  if (picked.size === 0) return [];
  const free = <O>(query: SelectQueryBuilder<DB, 'outbound_messages', O>) =>
    query
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]));
  // Each chosen endpoint's oldest due messages, as many as it was given.
  const branches = [...picked].map(([endpointId, count]) =>
    db
      .selectFrom(
        skipLocked(
          db,
          free(db.selectFrom('outbound_messages').select('id').where('endpoint_id', '=', endpointId))
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(count),
        ).as('b'),
      )
      .select('b.id'),
  );
  const chosen = branches.slice(1).reduce((all, branch) => all.unionAll(branch), branches[0]!);
  // A CTE runs once (PostgreSQL would otherwise re-run a LIMIT … SKIP LOCKED subquery per row).
  const rows = await db
    .with('chosen', () => chosen)
    .updateTable('outbound_messages')
    .set({ lease_until: leaseUntil })
    .where('id', 'in', (eb) => eb.selectFrom('chosen').select('chosen.id'))
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .returning(['id', 'endpoint_id', 'workspace_id', 'payload', 'attempts', 'attempt_count'])
    .execute();
  return rows.map((m) => ({ ...m, ...columns.get(m.endpoint_id)!, lease_until: leaseUntil }));
}

/** What an attempt changes on its message. */
export interface AttemptRecord {
  status: OutboundMessageStatus;
  attempts: string;
  attempt_count: number;
  next_attempt_at: string | null;
}

/**
 * Records an attempt on message `id` if this worker's lease still holds it (`lease_until`
 * unchanged), and releases the lease. Answers false when another worker took the message over
 * after the lease ran out (its record wins).
 */
export async function recordAttempt(db: Kysely<DB>, id: string, lease: string, record: AttemptRecord): Promise<boolean> {
  const result = await db
    .updateTable('outbound_messages')
    .set({ ...record, lease_until: null })
    .where('id', '=', id)
    .where('lease_until', '=', lease)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
