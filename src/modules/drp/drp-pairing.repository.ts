import type { Executor } from '../../db/executor.js';
import { multiRowInsert } from '../../db/multi-row-insert.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { EarlierExercise } from './drp-request.repository.js';
import type { DrpAgentRow } from './drp-agent.repository.js';

/** How long a replaced pairing's token keeps working (PRODUCT §2.19: 24 h). */
export const REPLACED_TOKEN_GRACE_MS = 24 * 60 * 60_000;

/** A bearer token's pairing, with its agent registration and its workspace's DRP settings. */
export interface PairedCaller {
  readonly agent: DrpAgentRow;
  readonly businessId: string;
  /** The workspace's DRP switch (off: every DRP route but key setup is a 403). */
  readonly drpEnabled: boolean;
  /** The workspace's supported actions, as stored (JSON array). */
  readonly supportedActions: string;
  readonly replacedAt: string | null;
}

/**
 * The pairing of a token by its SHA-256 (an index lookup), with its agent and the workspace's
 * settings; undefined when no such token is stored. Whether it is still valid (replaced more
 * than 24 h ago, agent disabled) is the caller's decision.
 */
export async function findPairing(db: Executor, tokenHash: string): Promise<PairedCaller | undefined> {
  const row = (await selectPairing(db, { tokenHash })).rows[0];
  return row && pairedCaller(row);
}

/** The pairing, agent and settings columns of a token's pairing (one indexed lookup and two joins). */
function pairingQuery(db: Executor, tokenHash: string) {
  return db
    .selectFrom('drp_pairings as p')
    .innerJoin('drp_agents as a', 'a.id', 'p.agent_ref')
    .innerJoin('drp_settings as s', 's.workspace_id', 'a.workspace_id')
    .select([
      'a.id',
      'a.workspace_id',
      'a.agent_id',
      'a.name',
      'a.verify_key',
      'a.key_fingerprint',
      'a.details',
      'a.confirm_with_consumer',
      'a.disabled',
      'a.paired_at',
      'a.created_at',
      'a.updated_at',
      's.business_id',
      's.enabled',
      's.supported_actions',
      'p.replaced_at',
    ])
    .where('p.token_hash', '=', tokenHash);
}

/** {@link pairingQuery}, built and compiled once (db/prepared-query.ts): every DRP route but key setup reads it. */
const selectPairing = preparedQuery<{ tokenHash: string }, PairingRow>(['tokenHash'], (db, p) => pairingQuery(db, p.tokenHash));

type PairingRow = Awaited<ReturnType<ReturnType<typeof pairingQuery>['executeTakeFirstOrThrow']>>;

function pairedCaller(row: PairingRow): PairedCaller {
  const { business_id, enabled, supported_actions, replaced_at, ...agent } = row;
  return {
    agent,
    businessId: business_id,
    drpEnabled: enabled === 1,
    supportedActions: supported_actions,
    replacedAt: replaced_at,
  };
}

/**
 * {@link pairingQuery} and what {@link findEarlierExercise} reads: whether the body's digest is
 * kept (and for which request), and which of the agent's records has `agentRequestId` (a null
 * `agentRequestId` matches none: `= NULL` is never true). Built and compiled once.
 */
const selectPairingWithEarlier = preparedQuery<
  { tokenHash: string; digest: string; agentRequestId: string | null },
  PairingRow & { digest_seen: unknown; digest_request: string | null; ari_request: string | null }
>(['tokenHash', 'digest', 'agentRequestId'], (db, p) =>
  pairingQuery(db, p.tokenHash).select((eb) => [
    eb.exists(eb.selectFrom('drp_digests as dd').select('dd.digest').where('dd.digest', '=', p.digest)).as('digest_seen'),
    eb.selectFrom('drp_digests as dr').select('dr.request_id').where('dr.digest', '=', p.digest).as('digest_request'),
    eb
      .selectFrom('drp_requests as r')
      .select('r.request_id')
      .whereRef('r.agent_ref', '=', 'a.id')
      .where('r.agent_request_id', '=', p.agentRequestId as string)
      .as('ari_request'),
  ]),
);

/**
 * {@link findPairing} and, in the same statement, what {@link findEarlierExercise} reads: whether
 * the body's digest is kept and which of the agent's records has `agentRequestId`. Saves one
 * read per DRP exercise; on SQLite every read waits for the write batch in hand
 * (db/sqlite-dialect.ts), so a read less is a batch's wait less (bench row `drp-exercise`). The
 * caller reads it before the signature is checked and uses it only after: `agentRequestId` is a
 * guess from the unverified bytes, and the caller reads again when the verified claim differs.
 */
export async function findPairingWithEarlier(
  db: Executor,
  tokenHash: string,
  exercise: { digest: string; agentRequestId: string | null },
): Promise<(PairedCaller & { earlier: EarlierExercise | undefined }) | undefined> {
  const row = (await selectPairingWithEarlier(db, { tokenHash, ...exercise })).rows[0];
  if (!row) return undefined;
  const { digest_seen, digest_request, ari_request, ...pairing } = row;
  const earlier: EarlierExercise | undefined =
    Number(digest_seen) === 1 || digest_seen === true
      ? { reason: 'replayed', requestId: digest_request ?? null }
      : ari_request
        ? { reason: 'agent_request_id_reused', requestId: ari_request }
        : undefined;
  return { ...pairedCaller(pairing), earlier };
}

/**
 * Stores a new pairing of the agent registration and marks its current one replaced at `at`
 * (that token keeps working {@link REPLACED_TOKEN_GRACE_MS} longer); pairings replaced before
 * the grace are dropped. Sets the agent's `paired_at`.
 */
export async function storePairing(
  db: Executor,
  pairing: { tokenHash: string; agentRef: string; workspaceId: string; at: string; graceStart: string },
): Promise<void> {
  await db
    .deleteFrom('drp_pairings')
    .where('agent_ref', '=', pairing.agentRef)
    .where('replaced_at', '<=', pairing.graceStart)
    .execute();
  await db
    .updateTable('drp_pairings')
    .set({ replaced_at: pairing.at })
    .where('agent_ref', '=', pairing.agentRef)
    .where('replaced_at', 'is', null)
    .execute();
  await db
    .insertInto('drp_pairings')
    .values({
      token_hash: pairing.tokenHash,
      agent_ref: pairing.agentRef,
      workspace_id: pairing.workspaceId,
      created_at: pairing.at,
      replaced_at: null,
    })
    .execute();
  await db.updateTable('drp_agents').set({ paired_at: pairing.at }).where('id', '=', pairing.agentRef).execute();
}

/**
 * Keeps a signed body's digest until its `expires-at` (PRODUCT §2.19, single use) and drops
 * digests whose time has passed.
 * @returns true when stored; false when the digest is already kept (a replay), with nothing written.
 */
export async function keepDigest(
  db: Executor,
  digest: { digest: string; requestId: string | null; expiresAt: string; now: string },
): Promise<boolean> {
  await db.deleteFrom('drp_digests').where('expires_at', '<', digest.now).execute();
  const result = await db
    .insertInto('drp_digests')
    .values({ digest: digest.digest, request_id: digest.requestId, expires_at: digest.expiresAt })
    .onConflict((oc) => oc.column('digest').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** A signed body's digest kept until `expires_at` (its request's id, null for a key setup's). */
export type KeptDigest = {
  readonly digest: string;
  readonly request_id: string | null;
  readonly expires_at: string;
};

const insertDigestRows = multiRowInsert<KeptDigest>('drp_digests', ['digest', 'request_id', 'expires_at']);

/**
 * Keeps a write batch's digests in one statement (db/multi-row-insert.ts), after dropping those
 * whose time passed before `now`. Digests already kept fail the statement: the caller's filing
 * key refused a second body first (modules/drp/drp-record-filing.ts).
 */
export async function keepDigests(db: Executor, digests: readonly KeptDigest[], now: string): Promise<void> {
  await db.deleteFrom('drp_digests').where('expires_at', '<', now).execute();
  await insertDigestRows(db, digests);
}

/** The request a kept digest belongs to (null for a key setup's), or undefined when none is kept. */
export async function digestRequest(db: Executor, digest: string): Promise<string | null | undefined> {
  const row = await db.selectFrom('drp_digests').select('request_id').where('digest', '=', digest).executeTakeFirst();
  return row === undefined ? undefined : row.request_id;
}
