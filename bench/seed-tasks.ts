/**
 * Seeding for the data-task result scenario: `count` requests of workspace `acme-tasks` whose own step
 * is done (`processing`, unleased, their package stored), each waiting for one pending data task
 * of system `crm`, written straight into the database before the service starts. Each result the
 * scenario posts is then the request's last one: it also completes the request (package with
 * `systems.crm`, status, audit), the full cost of a system answering.
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

/** The task ids, in the order the scenario answers them. */
export async function seedDataTasks(databaseUrl: string, runId: string, count: number): Promise<string[]> {
  const database = createDatabase(databaseUrl);
  const db = database.db;
  const now = new Date().toISOString();
  const due = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const ids: string[] = [];
  try {
    await db
      .insertInto('data_systems')
      .values({
        id: newId('sys'),
        workspace_id: WORKSPACE,
        key: 'crm',
        name: 'Bench CRM',
        categories: '["user.contact"]',
        request_types: '["access"]',
        endpoint_id: null,
        due_days: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
      .execute();
    for (let start = 0; start < count; start += CHUNK) {
      const n = Math.min(CHUNK, count - start);
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
          status_reason: 'waiting for data tasks: crm',
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
      const tasks = requestIds.map((requestId) => ({
        id: newId('task'),
        request_id: requestId,
        workspace_id: WORKSPACE,
        system_key: 'crm',
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
      }));
      await db.insertInto('data_tasks').values(tasks).execute();
      ids.push(...tasks.map((t) => t.id));
    }
    return ids;
  } finally {
    await database.close();
  }
}
