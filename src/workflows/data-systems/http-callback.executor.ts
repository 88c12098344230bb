import { enqueueEvent } from '../../modules/outbound-events/outbox.repository.js';
import { toTaskResource } from '../../modules/data-systems/data-task.resource.js';
import type { DataTaskExecutor } from './data-task-executor.js';

/**
 * The executor of a data system of kind `webhook` (its API value; in this code an *HTTP callback*,
 * because "webhook" here means the three inbound webhooks only; docs/development.md, "Words").
 * A system told through its own endpoint (`endpoint_id`): `data_task.created` to that
 * endpoint alone (it carries the subject's identities), with the task, the identities and the
 * links to report back (PRODUCT §2.9), all absolute under `PUBLIC_BASE_URL`: `links` and the
 * task's own `links` (self, result, request) alike. The system answers with `POST …/result`.
 */
export const httpCallbackExecutor: DataTaskExecutor = {
  manual: false,
  async announce(unit, { task, system, identities, links, at }) {
    if (system.endpoint_id === null) return;
    enqueueEvent(unit, {
      workspaceId: task.workspace_id,
      type: 'data_task.created',
      endpointId: system.endpoint_id,
      // An erasure of the subject redacts the messages about its requests (outbound-events).
      requestId: task.request_id,
      occurredAt: at,
      data: {
        task: { ...toTaskResource(task, at), links: { self: links.task, result: links.result, request: links.request } },
        ...(await identities()),
        links,
      },
    });
  },
};
