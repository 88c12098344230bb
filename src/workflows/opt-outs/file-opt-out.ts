import { isUniqueViolation } from '../../db/errors.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import { fingerprint } from '../../modules/idempotency/idempotency.fns.js';
import { IdempotencyConflict, KEY_ATTEMPTS, type KeyUse } from '../../modules/idempotency/idempotency.service.js';
import { optOutDueAt } from '../../modules/opt-outs/deadline.fns.js';
import { fileOptOutAtCommit } from '../../modules/opt-outs/opt-out-filing.js';
import type { OptOutAgent, OptOutFiling, OptOutResource, PreferenceChange } from '../../modules/opt-outs/opt-out.types.js';
import { enqueueEvent } from '../../modules/outbound-events/outbox.repository.js';
import type { Principal } from '../../modules/principals/principal.js';
import type { OptOutDeps } from './deps.js';
import { propagateAtCommit, systemsForOptOut } from './opt-out-propagation.js';
import type { DataSystemRow } from '../../modules/data-systems/data-system.repository.js';

/** An opt-out or opt-in as filed (PRODUCT §2.18); validated by the caller (the route's schema). */
export type FileOptOutInput = Pick<
  OptOutResource,
  'workspace_id' | 'subject_provider' | 'subject_id' | 'kind' | 'choice' | 'source' | 'client_request_id'
> & {
  /** RFC 3339; default: now. */
  received_at?: string | undefined;
  /** The authorized agent filing it (DRP, PRODUCT §2.19; `source` `agent`). */
  agent?: OptOutAgent | undefined;
};

/** A filing's outcome, and whether it is the replay of an earlier filing with the same key. */
export type OptOutFilingOutcome = OptOutFiling & { replayed: boolean };

/** How an opt-out is filed, beside what it says (not part of the key's fingerprint). */
export interface OptOutFilingOptions {
  /**
   * Writes that exist only if the opt-out is stored, deferred on `stored` (a unit whose deferred
   * writes are dropped with the row); `outcome` is readable at the flush of a kind of place 4:
   * a DRP exercise's record and digest, so they share the filing's commit
   * (modules/drp/drp-record-filing.ts).
   */
  alongside?: (stored: UnitOfWork, outcome: () => OptOutFiling) => void;
  /** As a privacy request's `keyUnused` (FilingOptions): the key's read before the unit is skipped. */
  keyUnused?: boolean;
}

/**
 * Files an opt-out or opt-in under an Idempotency-Key (PRODUCT §2.18), as a privacy request is
 * filed (docs/development.md, "The write path"): a replay is answered from the key's record;
 * otherwise ONE unit of work, all of it deferred to the commit, claims the key and adds the row,
 * the subject's preference (honoured at once, unless a choice received later stands), the audit
 * entries, the `privacy_preference.changed` event, its propagation (opt-out-propagation.ts: a
 * data task per system naming its kind, earlier open opt-outs of the subject and kind
 * superseded) and the key's record with the outcome. The systems are read before the unit: with
 * none, the opt-out is `completed` when filed; with some, `processing` until their tasks are
 * done. `due_at` follows the kind (deadline.fns.ts) and the workspace policy's `holidays`.
 *
 * @throws IdempotencyConflict for a reused or in-flight key.
 */
export async function fileOptOut(
  deps: Pick<OptOutDeps, 'db' | 'clock' | 'transact' | 'idempotency' | 'policies' | 'optOutRecord' | 'publicBaseUrl'>,
  principal: Principal,
  idempotencyKey: string,
  input: FileOptOutInput,
  options: OptOutFilingOptions = {},
): Promise<OptOutFilingOutcome> {
  const { policy } = await deps.policies.effective(input.workspace_id, '');
  const use: KeyUse = { principalId: principal.id, key: idempotencyKey, fingerprint: fingerprint(input) };
  for (let attempt = 1; ; attempt++) {
    try {
      // Read outside the unit (which sends no statement of its own), as the policy is.
      const systems = await systemsForOptOut(deps.db, input.workspace_id, input.kind);
      return await fileOnce(
        deps,
        use,
        (unit) => addOptOut(deps, unit, principal, input, { holidays: policy.holidays, systems }, options),
        // A retry after another process stored the key reads it.
        options.keyUnused === true && attempt === 1,
      );
    } catch (error) {
      // Another process stored the same key after our claim: read it again.
      if (!isUniqueViolation(error) || attempt >= KEY_ATTEMPTS) throw error;
    }
  }
}

/** One try: the key's record replayed, or one unit that claims the key and adds the opt-out. */
async function fileOnce(
  deps: Pick<OptOutDeps, 'transact' | 'idempotency' | 'optOutRecord'>,
  use: KeyUse,
  add: (unit: UnitOfWork) => () => OptOutFiling,
  keyUnused: boolean,
): Promise<OptOutFilingOutcome> {
  const stored = keyUnused ? null : await deps.idempotency.peek(use);
  if (stored) return { ...deps.optOutRecord.decode(stored), replayed: true };
  const { key, outcome } = await deps.transact(async (unit) => {
    const key = deps.idempotency.claim(unit, use);
    const outcome = add(key.unit);
    deps.idempotency.record(key, () => deps.optOutRecord.encode(outcome()));
    return { key, outcome };
  });
  const claim = key.outcome();
  if (claim.kind === 'conflict') throw new IdempotencyConflict(claim.reason);
  if (claim.kind === 'replay') return { ...deps.optOutRecord.decode(claim.response), replayed: true };
  return { ...outcome(), replayed: false };
}

/**
 * Adds the opt-out to `unit`, accepted now (`completed` with no system to tell, else
 * `processing`), with what it writes besides its row: the `opt_out.created` audit entry (kind,
 * choice, source, status, tasks; never the subject's identity); when it set the subject's
 * preference, the `privacy_preference.changed` entry and event and its propagation; when it did
 * not (a choice received later stands) but had systems to tell, `opt_out.completed` at once.
 */
function addOptOut(
  deps: Pick<OptOutDeps, 'clock' | 'publicBaseUrl'>,
  unit: UnitOfWork,
  principal: Principal,
  input: FileOptOutInput,
  context: { holidays: readonly string[]; systems: readonly DataSystemRow[] },
  options: OptOutFilingOptions,
): () => OptOutFiling {
  const filed = deps.clock();
  const now = toTimestamp(filed);
  const received = input.received_at === undefined ? filed : new Date(input.received_at);
  const propagates = context.systems.length > 0;
  const row = {
    id: newId('oo', filed.getTime()),
    workspace_id: input.workspace_id,
    subject_provider: input.subject_provider,
    subject_id: input.subject_id,
    kind: input.kind,
    choice: input.choice,
    source: input.source,
    client_request_id: input.client_request_id,
    // Honoured at once; done when every system told of it has done its part (none: now).
    status: propagates ? 'processing' : 'completed',
    received_at: toTimestamp(received),
    created_at: now,
    due_at: toTimestamp(optOutDueAt(input.kind, received, context.holidays)),
    completed_at: propagates ? null : now,
    filed_by: principal.id,
    agent: input.agent === undefined ? null : JSON.stringify(input.agent),
  };
  const actor = { actor: principal.id, actorName: principal.name };
  const audit = { ...actor, targetType: 'opt_out', targetId: row.id };
  const details = { kind: row.kind, choice: row.choice, source: row.source };
  let supersededAtOnce = false;
  const outcome = fileOptOutAtCommit(unit, row, ({ stored, preferenceSet, completedAtOnce }) => {
    recordAudit(stored, {
      ...audit,
      action: 'opt_out.created',
      workspaceId: row.workspace_id,
      details: {
        ...details,
        status: row.status,
        // The systems it is to tell (keys), when there are any.
        ...(propagates ? { systems: context.systems.map((system) => system.key) } : {}),
      },
      occurredAt: now,
    });
    recordAudit(preferenceSet, {
      ...audit,
      action: 'privacy_preference.changed',
      workspaceId: row.workspace_id,
      details,
      occurredAt: now,
    });
    recordAudit(completedAtOnce, {
      ...audit,
      action: 'opt_out.completed',
      workspaceId: row.workspace_id,
      details: { from: 'processing', to: 'completed', later_choice_stands: true },
      occurredAt: now,
    });
    const change: PreferenceChange = {
      workspace_id: row.workspace_id,
      subject_provider: row.subject_provider,
      subject_id: row.subject_id,
      kind: input.kind,
      choice: input.choice,
      source: input.source,
      opt_out_id: row.id,
      updated_at: now,
    };
    enqueueEvent(preferenceSet, {
      workspaceId: row.workspace_id,
      type: 'privacy_preference.changed',
      data: change,
      occurredAt: now,
    });
    propagateAtCommit(preferenceSet, {
      optOut: row,
      systems: context.systems,
      at: now,
      base: deps.publicBaseUrl.replace(/\/+$/, ''),
      actor,
      supersededAtOnce: () => {
        supersededAtOnce = true;
      },
    });
    options.alongside?.(stored, read);
  });
  /** The outcome as answered: `completed` when its propagation found nothing left to tell (place 3). */
  function read(): OptOutFiling {
    const filing = outcome();
    if (filing.kind !== 'filed' || !supersededAtOnce) return filing;
    return { ...filing, accepted: { ...filing.accepted, status: 'completed' } };
  }
  return read;
}
