/**
 * Seeding for the data-task result scenario: requests of workspace `acme-tasks` whose own step is
 * done (`processing`, unleased, their package stored), each waiting for one pending data task per
 * seeded system (`crm-00`, `crm-01`, … ; `BENCH_TASK_SYSTEMS`, default 50), written straight into
 * the database before the service starts. The tasks are answered request by request, so the
 * systems of one request answer at about the same time (a fan-out whose systems all answer
 * promptly); each request's last result also completes it (the package with every system's
 * `data` under `systems.<key>`, status, audit), the full cost of systems answering (issue 23 item 2).
 */
import { createDatabase } from '../src/db/database.js';
import { newId } from '../src/lib/ids.js';
import { REQUEST_COLUMNS } from '../src/modules/privacy-requests/privacy-request.repository.js';

/**
 * The scenario's own workspace: the `create` scenario's access requests in `acme` must not fan
 * out to the seeded system, or the worker phase would find them waiting for tasks, not finished.
 */
const WORKSPACE = 'acme-tasks';

/** Rows per insert statement (well under PostgreSQL's parameter limit). */
const CHUNK = 500;

/** The most systems one seeded request fans out to. */
const MAX_SYSTEMS = 500;

/** The system keys of a request fanned out to `systems` systems: `crm-00`, `crm-01`, … (`crm` alone for one). */
function systemKeys(systems: number): string[] {
  if (systems === 1) return ['crm'];
  const width = String(systems - 1).length;
  return Array.from({ length: systems }, (_, i) => `crm-${String(i).padStart(width, '0')}`);
}

/**
 * Seeds at least `count` pending tasks, `systems` per request.
 * @returns the task ids in the order the scenario answers them: the tasks of one request
 *   together, request after request.
 */
export async function seedDataTasks(databaseUrl: string, runId: string, count: number, systems = 1): Promise<string[]> {
  if (!Number.isInteger(systems) || systems < 1 || systems > MAX_SYSTEMS)
    throw new Error(`BENCH_TASK_SYSTEMS must be an integer from 1 to ${MAX_SYSTEMS}`);
  const keys = systemKeys(systems);
  const requestCount = Math.ceil(count / systems);
  const database = createDatabase(databaseUrl);
  const db = database.db;
  const now = new Date().toISOString();
  const due = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const ids: string[] = [];
  try {
    await db
      .insertInto('data_systems')
      .values(
        keys.map((key) => ({
          id: newId('sys'),
          workspace_id: WORKSPACE,
          key,
          name: `Bench ${key}`,
          categories: '["user.contact"]',
          request_types: '["access"]',
          endpoint_id: null,
          due_days: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })),
      )
      .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
      .execute();
    // Requests per chunk so that its tasks also stay within CHUNK rows.
    const perChunk = Math.max(1, Math.floor(CHUNK / systems));
    for (let start = 0; start < requestCount; start += perChunk) {
      const n = Math.min(perChunk, requestCount - start);
      const requests = Array.from({ length: n }, (_, i) => {
        const id = newId('pr');
        const row: Record<(typeof REQUEST_COLUMNS)[number], unknown> = {
          id,
          workspace_id: WORKSPACE,
          request_type: 'access',
          scope: '["user.contact"]',
          subject_provider: 'github',
          subject_id: `task-subject-${start + i}`,
          client_request_id: `bench-task-${runId}-${start + i}`,
          intake_ref: `bench://${runId}/task/${start + i}`,
          regulation: 'gdpr',
          received_at: now,
          status: 'processing',
          status_reason: `waiting for data tasks: ${keys.slice(0, 3).join(', ')}${systems > 3 ? ', …' : ''}`,
          created_at: now,
          due_at: due,
          extended_due_at: null,
          completed_at: null,
          updated_at: now,
          attempts: 1,
          lease_owner: null,
          lease_expires_at: null,
          next_attempt_at: null,
          filed_by: 'bench',
          related_request_id: null,
          agent: null,
          agent_id: null,
        };
        return row as never;
      });
      await db.insertInto('privacy_requests').values(requests).execute();
      const requestIds = (requests as { id: string }[]).map((r) => r.id);
      await db
        .insertInto('request_results')
        .values(
          requestIds.map((id) => ({
            request_id: id,
            package: JSON.stringify({ format: 'privacy-access/1', request_id: id, workspace_id: WORKSPACE, data: {} }),
            report: null,
            created_at: now,
            package_expires_at: null,
            package_expired_at: null,
          })),
        )
        .execute();
      const tasks = requestIds.flatMap((requestId) =>
        keys.map((key) => ({
          id: newId('task'),
          request_id: requestId,
          workspace_id: WORKSPACE,
          system_key: key,
          request_type: 'access',
          categories: '["user.contact"]',
          status: 'pending' as const,
          due_at: due,
          created_at: now,
          updated_at: now,
          completed_at: null,
          result: null,
          overdue_notified_at: null,
          executor: 'manual',
          attempts: 0,
          lease_owner: null,
          lease_expires_at: null,
          next_attempt_at: null,
        })),
      );
      for (let at = 0; at < tasks.length; at += CHUNK)
        await db
          .insertInto('data_tasks')
          .values(tasks.slice(at, at + CHUNK))
          .execute();
      ids.push(...tasks.map((t) => t.id));
    }
    return ids;
  } finally {
    await database.close();
  }
}
