import type { UnitOfWork } from '../../../db/unit-of-work.js';
import { type ActorRef, actorFields, recordAudit } from '../../audit/audit.repository.js';
import { closePendingTasks } from '../../data-systems/data-task-lifecycle.repository.js';
import { taskStatusesOfRequest } from '../../data-systems/data-task-result.repository.js';
import { passTaskResults } from '../../data-systems/task-data-pass.js';
import { nextTurn } from '../../../lib/yielding.js';

/**
 * A request was canceled or rejected while tasks were pending: each becomes `not_applicable`
 * (its system need not act any more), audited by `actor` (target `data_task`, the request id in
 * `details`), in the unit that ends the request; the data reported by tasks already answered is
 * dropped (no package will hold it).
 *
 * @returns how many tasks were closed.
 */
export async function closeTasksOfEndedRequest(
  unit: UnitOfWork,
  requestId: string,
  actor: ActorRef,
  at: string,
): Promise<number> {
  const closed = await closePendingTasks(unit.tx, requestId, at);
  await passTaskResults(unit.tx, await taskStatusesOfRequest(unit.tx, requestId), at, () => undefined, nextTurn);
  for (const task of closed)
    recordAudit(unit, {
      ...actorFields(actor),
      requestId,
      action: 'data_task.not_applicable',
      targetType: 'data_task',
      targetId: task.id,
      workspaceId: task.workspace_id,
      details: {
        request_id: requestId,
        system_key: task.system_key,
        from: 'pending',
        to: 'not_applicable',
        reason: 'request ended',
      },
      occurredAt: at,
    });
  return closed.length;
}
