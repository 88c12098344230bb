/** Data-system tests: a webhook endpoint row (the endpoints API is built elsewhere), systems and task results through the API. */
import assert from 'node:assert/strict';
import type { Insertable } from 'kysely';
import type { Executor } from '../../src/db/executor.js';
import { newId } from '../../src/lib/ids.js';
import type { WebhookEndpointTable } from '../../src/db/tables/outbound-event.table.js';
import type { TestApp } from './app.js';

/** Inserts an enabled webhook endpoint of `workspace` through the module's table shape. @returns its id. */
export async function insertEndpoint(db: Executor, workspace: string, eventTypes: string[] | null = null): Promise<string> {
  const row: Insertable<WebhookEndpointTable> = {
    id: newId('ep'),
    workspace_id: workspace,
    url: 'https://receiver.example.com/hooks',
    description: null,
    event_types: eventTypes === null ? null : JSON.stringify(eventTypes),
    secret_ciphertext: 'not-used-by-these-tests',
    previous_secret_ciphertext: null,
    previous_secret_expires_at: null,
    failing_since: null,
    disabled_at: null,
    created_at: new Date().toISOString(),
  };
  await db.insertInto('webhook_endpoints').values(row).execute();
  return row.id;
}

/** Creates a data system through the API (201 expected). @returns the resource. */
export async function addSystem(t: TestApp, admin: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/data-systems',
    headers: { authorization: admin },
    payload: { workspace_id: 'acme', name: 'A system', request_types: ['access'], categories: ['user'], ...body },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** Posts a task result. @returns the response. */
export function postResult(t: TestApp, auth: string, taskId: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/data-tasks/${taskId}/result`,
    headers: { authorization: auth },
    payload: body,
  });
}

/** The tasks of a request, by system key. */
export async function tasksOf(db: Executor, requestId: string) {
  return db.selectFrom('data_tasks').selectAll().where('request_id', '=', requestId).orderBy('system_key').execute();
}
