import type { UnitOfWork } from '../../db/unit-of-work.js';
import { toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../../modules/audit/audit.repository.js';
import type { DataSystemRow } from '../../modules/data-systems/data-system.repository.js';
import { overlapCategories, pendingTaskRow } from '../../modules/data-systems/data-task.fns.js';
import { type DataTaskRow, systemsForRequest } from '../../modules/data-systems/data-task.repository.js';
import { insertTaskUnlessPresent } from '../../modules/data-systems/data-task-lifecycle.repository.js';
import { taskLocation } from '../../modules/data-systems/data-task.resource.js';
import { subjectIdentities as searchIdentities } from '../data-systems/connector-task-input.js';
import type { SubjectIdentities } from '../data-systems/data-task-executor.js';
import { executorOf, kindOf } from '../data-systems/executors.js';
import { type PrivacyRequestRow, requestLocation } from '../../modules/request-model/request-model.js';
import { resolveSubject } from '../../modules/subject-data/subject-data.repository.js';
import { parseScope } from '../../modules/subject-data/scope.fns.js';
import { listLinkedIdentities } from '../../modules/subjects/subject.repository.js';

/**
 * The identities a system needs to find the person: the requested one (a request's, or an
 * opt-out's: PRODUCT §2.18), the accounts linked to it, and all of them by the names a database
 * system is searched by (PRODUCT §2.17).
 */
export async function subjectIdentities(
  unit: UnitOfWork,
  request: Pick<PrivacyRequestRow, 'workspace_id' | 'subject_provider' | 'subject_id'>,
): Promise<SubjectIdentities> {
  const subject = await resolveSubject(unit.tx, request);
  const linked = subject ? await listLinkedIdentities(unit.tx, subject.id) : [];
  const identities = await searchIdentities(unit.tx, request);
  return {
    subject: { subject_provider: request.subject_provider, subject_id: request.subject_id },
    ...(subject && (subject.subject_provider !== request.subject_provider || subject.subject_id !== request.subject_id)
      ? { idp_subject: { subject_provider: subject.subject_provider, subject_id: subject.subject_id } }
      : {}),
    linked_accounts: linked.map((a) => ({ provider: a.provider, account_id: a.account_id, login: a.login ?? null })),
    identities,
  };
}

function newTask(request: PrivacyRequestRow, system: DataSystemRow, categories: string[], now: Date): DataTaskRow {
  return pendingTaskRow({
    id: newId('task'),
    ownerId: request.id,
    optOutId: null,
    workspaceId: request.workspace_id,
    system,
    executor: kindOf(system),
    requestType: request.request_type,
    categories,
    ownerDue: request.extended_due_at ?? request.due_at,
    now,
  });
}

/** What announcing a request's tasks needs: when, the links' base, the secret box, the identities (read once). */
export interface Announcing {
  /** RFC 3339 UTC. */
  at: string;
  /** `PUBLIC_BASE_URL` without a trailing slash. */
  base: string;
  seal?: (plaintext: string) => string;
  identities: () => Promise<SubjectIdentities>;
}

/**
 * How a request's tasks are announced in `unit` at `now`: the subject's identities are read at
 * most once, and only when an executor asks, as the request names them (its current identity).
 */
export function announcing(
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  now: Date,
  publicBaseUrl: string,
  seal?: (plaintext: string) => string,
): Announcing {
  let identities: Promise<SubjectIdentities> | null = null;
  return {
    at: toTimestamp(now),
    base: publicBaseUrl.replace(/\/+$/, ''),
    ...(seal ? { seal } : {}),
    identities: () => (identities ??= subjectIdentities(unit, request)),
  };
}

/**
 * Tells `system` of its task through its executor (modules/data-systems/executors): a webhook
 * system gets `data_task.created` at its own endpoint with the identities and absolute links; a
 * connector keeps the identities sealed for its run; a manual system nothing.
 */
export async function announceTask(
  unit: UnitOfWork,
  task: DataTaskRow,
  system: DataSystemRow,
  request: PrivacyRequestRow,
  a: Announcing,
): Promise<void> {
  await executorOf(system).announce(unit, {
    task,
    system,
    request,
    ...(a.seal ? { seal: a.seal } : {}),
    identities: a.identities,
    links: {
      task: `${a.base}${taskLocation(task.id)}`,
      result: `${a.base}${taskLocation(task.id)}/result`,
      request: `${a.base}${requestLocation(request.id)}`,
    },
    at: a.at,
  });
}

/**
 * The fan-out of a request to its workspace's data systems (PRODUCT §2.9), in the worker's unit
 * of work: one `pending` task per live system whose `request_types` include the request's type
 * and whose `categories` overlap its scope (both ways), each audited (`data_task.created`,
 * target `data_task`, the request id in `details`) and announced ({@link announceTask}, links
 * under `publicBaseUrl`). A task the request already has (a retried attempt, or one re-opened for
 * a re-pointed identity: task-reopen.ts) is not created again. `seal` (the secret box) lets an
 * executor keep what its later run needs (a connector: the subject's identities).
 *
 * @returns how many systems match (0: the request has no tasks, and nothing was read beyond the systems).
 */
export async function fanOutTasks(
  unit: UnitOfWork,
  request: PrivacyRequestRow,
  now: Date,
  publicBaseUrl: string,
  seal?: (plaintext: string) => string,
): Promise<number> {
  const systems = await systemsForRequest(unit.tx, request.workspace_id, request.request_type);
  if (systems.length === 0) return 0;
  const scope = parseScope(request.scope);
  const matched = systems
    .map((system) => ({ system, categories: overlapCategories(JSON.parse(system.categories) as string[], scope) }))
    .filter((m) => m.categories.length > 0);
  const a = announcing(unit, request, now, publicBaseUrl, seal);
  for (const { system, categories } of matched) {
    const task = newTask(request, system, categories, now);
    if (!(await insertTaskUnlessPresent(unit.tx, task))) continue;
    recordAudit(unit, {
      actor: 'worker',
      requestId: request.id,
      action: 'data_task.created',
      targetType: 'data_task',
      targetId: task.id,
      workspaceId: task.workspace_id,
      details: {
        request_id: request.id,
        system_key: system.key,
        categories,
        due_at: task.due_at,
        manual: executorOf(system).manual,
      },
      occurredAt: a.at,
    });
    await announceTask(unit, task, system, request, a);
  }
  return matched.length;
}
