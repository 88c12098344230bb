import type { UnitOfWork } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import { type ActorRef, actorFields, recordAudit } from '../../modules/audit/audit.repository.js';
import { findSystemByKey } from '../../modules/data-systems/data-system.repository.js';
import { taskDueAt } from '../../modules/data-systems/data-task.fns.js';
import { reopenTask } from '../../modules/data-systems/data-task-lifecycle.repository.js';
import { tasksOfRequest } from '../../modules/data-systems/data-task.repository.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { announceTask, announcing } from './task-fanout.js';

/**
 * Re-pointing keeps the work (PRODUCT §2.17): every data task of `request` (which now names its
 * new identity) is opened again as the task for that identity, in `unit`: the same row, `pending`
 * again, its earlier result dropped (it answered for another identity), under a **new id**, so an
 * answer to the old task (a system's late or repeated `POST …/result`) can never count for the new
 * identity (it is a 404). Each is audited (`data_task.reopened`, by `actor`, with the previous id)
 * and announced again like a new task (a webhook system gets `data_task.created` with the new
 * identities; a connector keeps them sealed for its run). The worker's fan-out then adds tasks
 * for systems that match now and had none. The caller holds the request's row lock.
 *
 * @returns how many tasks were re-opened.
 */
export async function reopenTasks(
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  actor: ActorRef,
  now: Date,
  publicBaseUrl: string,
  seal?: (plaintext: string) => string,
): Promise<number> {
  const tasks = await tasksOfRequest(unit.tx, request.id);
  const a = announcing(unit, request, now, publicBaseUrl, seal);
  let reopened = 0;
  for (const old of tasks) {
    // A system deleted since keeps its row (and its name): its task is re-opened too, and waits for an answer.
    const system = await findSystemByKey(unit.tx, request.workspace_id, old.system_key);
    const due = taskDueAt(request.extended_due_at ?? request.due_at, now, system?.due_days ?? null);
    const task = await reopenTask(unit.tx, old.id, { id: newId('task'), due_at: due, at: a.at });
    if (!task) continue;
    reopened += 1;
    recordAudit(unit, {
      ...actorFields(actor),
      requestId: request.id,
      action: 'data_task.reopened',
      targetType: 'data_task',
      targetId: task.id,
      workspaceId: task.workspace_id,
      details: {
        request_id: request.id,
        system_key: task.system_key,
        previous_task_id: old.id,
        from: old.status,
        to: 'pending',
        due_at: task.due_at,
        reason: 'identity re-pointed',
      },
      occurredAt: a.at,
    });
    if (system) await announceTask(unit, task, system, request, a);
  }
  return reopened;
}
