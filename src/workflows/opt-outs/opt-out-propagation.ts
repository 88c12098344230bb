import type { Executor } from '../../db/executor.js';
import type { DeferredWrites, UnitOfWork } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import type { DataSystemRow } from '../../modules/data-systems/data-system.repository.js';
import { isDatabaseKind } from '../../modules/data-systems/data-system-input.fns.js';
import { type OptOutRequestType, pendingTaskRow, SUPERSEDED } from '../../modules/data-systems/data-task.fns.js';
import { closePendingTasks, insertTaskUnlessPresent } from '../../modules/data-systems/data-task-lifecycle.repository.js';
import { type DataTaskRow, systemsForRequest } from '../../modules/data-systems/data-task.repository.js';
import { taskStatusesOfRequest } from '../../modules/data-systems/data-task-result.repository.js';
import { taskLocation, toTaskResource } from '../../modules/data-systems/data-task.resource.js';
import { enqueueEvent } from '../../modules/outbound-events/outbox.repository.js';
import { optOutLocation, optOutStatusAfterTasks } from '../../modules/opt-outs/opt-out.fns.js';
import { endOptOut, lockOpenOptOutsOf, type OptOutRow, preferenceHolder } from '../../modules/opt-outs/opt-out.repository.js';
import { OPEN_OPT_OUT_STATUSES, type OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import { executorOf, kindOf } from '../data-systems/executors.js';
import { subjectIdentities } from '../tasks/task-fanout.js';

/** The request type a data system names in `request_types` to be told of opt-outs of each kind (PRODUCT §2.18). */
export const OPT_OUT_REQUEST_TYPE: Readonly<Record<OptOutKind, OptOutRequestType>> = {
  sale_sharing: 'opt_out_sale_sharing',
  sensitive_use: 'limit_sensitive_use',
  direct_marketing: 'object_direct_marketing',
};

/**
 * The live systems of the workspace told of an opt-out (or opt-in) of `kind`: those whose
 * `request_types` name its request type ({@link OPT_OUT_REQUEST_TYPE}), by key. A database system
 * never names one (refused when it is registered), and is left out should one ever do.
 */
export async function systemsForOptOut(db: Executor, workspaceId: string, kind: OptOutKind): Promise<DataSystemRow[]> {
  const systems = await systemsForRequest(db, workspaceId, OPT_OUT_REQUEST_TYPE[kind]);
  return systems.filter((system) => !isDatabaseKind(system.kind));
}

/** What of an opt-out its propagation reads. */
export type PropagatedOptOut = Pick<
  OptOutRow,
  'id' | 'workspace_id' | 'subject_provider' | 'subject_id' | 'kind' | 'choice' | 'source' | 'received_at' | 'due_at'
>;

/** One filed opt-out's propagation, deferred by {@link propagateAtCommit}. */
interface Propagation {
  /** Where its audit entries and events go: the filing's unit, gated on the opt-out having set the preference. */
  unit: UnitOfWork;
  optOut: PropagatedOptOut;
  /** The systems told of it (read before the unit: {@link systemsForOptOut}); none: it was completed when filed. */
  systems: readonly DataSystemRow[];
  /** When it was filed (RFC 3339 UTC). */
  at: string;
  /** `PUBLIC_BASE_URL` without a trailing slash. */
  base: string;
  /** Who filed it: the actor of the entries its propagation writes. */
  actor: { actor: string; actorName?: string };
  /** Called when a later choice filed in the same transaction replaced it before it was propagated. */
  supersededAtOnce: () => void;
}

/** The audit entry fields every entry of a propagation shares. */
function entry(p: Propagation, targetType: string, targetId: string) {
  return { ...p.actor, targetType, targetId, workspaceId: p.optOut.workspace_id, occurredAt: p.at };
}

/**
 * The open opt-outs of the subject and kind other than `p.optOut` (each filed or received
 * earlier: `p.optOut` holds the preference) end: their pending tasks become `superseded` (PRODUCT
 * §2.18), and each ends as its tasks now decide (`completed`, or `failed` when one failed before),
 * audited (`data_task.superseded`, `opt_out.<status>` with `superseded_by`). The opt-outs are
 * locked before their tasks, as a task's result locks them.
 */
async function supersedeEarlier(tx: Executor, p: Propagation): Promise<void> {
  const earlier = await lockOpenOptOutsOf(tx, p.optOut, p.optOut.id, OPEN_OPT_OUT_STATUSES);
  for (const optOut of earlier) {
    for (const task of await closePendingTasks(tx, optOut.id, p.at, SUPERSEDED))
      recordAudit(p.unit, {
        ...entry(p, 'data_task', task.id),
        action: `data_task.${SUPERSEDED}`,
        details: {
          opt_out_id: optOut.id,
          system_key: task.system_key,
          from: 'pending',
          to: SUPERSEDED,
          superseded_by: p.optOut.id,
        },
      });
    const statuses = (await taskStatusesOfRequest(tx, optOut.id)).map((t) => t.status);
    const to = optOutStatusAfterTasks(statuses) === 'failed' ? 'failed' : 'completed';
    if (!(await endOptOut(tx, optOut.id, to, p.at, OPEN_OPT_OUT_STATUSES))) continue;
    recordAudit(p.unit, {
      ...entry(p, 'opt_out', optOut.id),
      action: `opt_out.${to}`,
      details: { from: optOut.status, to, superseded_by: p.optOut.id },
    });
  }
}

/** A new pending task of `optOut` for `system`, due by the opt-out's `due_at` or the system's `due_days`, the earlier. */
function newOptOutTask(p: Propagation, system: DataSystemRow): DataTaskRow {
  return pendingTaskRow({
    id: newId('task'),
    ownerId: p.optOut.id,
    optOutId: p.optOut.id,
    workspaceId: p.optOut.workspace_id,
    system,
    executor: kindOf(system),
    requestType: OPT_OUT_REQUEST_TYPE[p.optOut.kind as OptOutKind],
    categories: [],
    ownerDue: p.optOut.due_at,
    now: new Date(p.at),
  });
}

/**
 * One data task per system of `p` (PRODUCT §2.18), each audited (`data_task.created`, the opt-out
 * id in `details`) and announced: a webhook system gets `data_task.created` at its own endpoint
 * with the task, the opt-out's choice, the subject's identities (read once, as a request's task
 * carries them: task-fanout.ts `subjectIdentities`) and absolute links; a manual one nothing (its
 * task is listed with the others).
 */
async function createTasks(tx: Executor, p: Propagation): Promise<void> {
  let identities: ReturnType<typeof subjectIdentities> | null = null;
  const unit = { ...p.unit, tx } as UnitOfWork;
  for (const system of p.systems) {
    const task = newOptOutTask(p, system);
    if (!(await insertTaskUnlessPresent(tx, task))) continue;
    recordAudit(p.unit, {
      ...entry(p, 'data_task', task.id),
      action: 'data_task.created',
      details: {
        opt_out_id: p.optOut.id,
        system_key: system.key,
        request_type: task.request_type,
        due_at: task.due_at,
        manual: executorOf(system).manual,
      },
    });
    if (system.kind !== 'webhook' || system.endpoint_id === null) continue;
    identities ??= subjectIdentities(unit, p.optOut);
    const links = {
      task: `${p.base}${taskLocation(task.id)}`,
      result: `${p.base}${taskLocation(task.id)}/result`,
      opt_out: `${p.base}${optOutLocation(p.optOut.id)}`,
    };
    const { id, kind, choice, source, received_at, due_at } = p.optOut;
    enqueueEvent(p.unit, {
      workspaceId: task.workspace_id,
      type: 'data_task.created',
      endpointId: system.endpoint_id,
      occurredAt: p.at,
      data: {
        task: { ...toTaskResource(task, p.at), links: { self: links.task, result: links.result, opt_out: links.opt_out } },
        opt_out: { id, kind, choice, source, received_at, due_at },
        ...(await identities),
        links,
      },
    });
  }
}

/**
 * Filed opt-outs' propagation as a deferred write (`DEFERRED_WRITE_PLACES`: after the filed
 * opt-outs, which set the preference and settle the gate each item waits behind, and before the
 * audit chain and the outbox, where its entries and events go). For each opt-out, in filing order:
 * when a later choice filed in the same transaction holds the preference already, it is
 * completed without tasks (superseded at once); otherwise the earlier open opt-outs of the
 * subject and kind are superseded ({@link supersedeEarlier}) and its tasks created ({@link createTasks}).
 */
const optOutPropagation: DeferredWrites<Propagation> = {
  name: 'opt-out propagation',
  async flush(tx, items) {
    for (const p of items) {
      if ((await preferenceHolder(tx, p.optOut)) !== p.optOut.id) {
        if (p.systems.length > 0 && (await endOptOut(tx, p.optOut.id, 'completed', p.at, OPEN_OPT_OUT_STATUSES))) {
          recordAudit(p.unit, {
            ...entry(p, 'opt_out', p.optOut.id),
            action: 'opt_out.completed',
            details: { from: 'processing', to: 'completed', superseded_at_once: true },
          });
          p.supersededAtOnce();
        }
        continue;
      }
      await supersedeEarlier(tx, p);
      if (p.systems.length > 0) await createTasks(tx, p);
    }
  },
};

/**
 * Propagates a filed opt-out at `unit`'s commit (PRODUCT §2.18): `unit` is the filing's, gated on
 * the opt-out having set the subject's preference (a choice received earlier than the standing
 * one is not propagated: the standing one was). See {@link optOutPropagation}.
 */
export function propagateAtCommit(unit: UnitOfWork, propagation: Omit<Propagation, 'unit'>): void {
  unit.defer(optOutPropagation, { ...propagation, unit });
}
