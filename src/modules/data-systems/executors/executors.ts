import type { DataSystemRow } from '../data-system.repository.js';
import type { DataTaskExecutor } from './data-task-executor.js';
import { manualExecutor } from './manual.executor.js';
import { webhookExecutor } from './webhook.executor.js';

/** Kinds of data system (PRODUCT §2.9): told through a webhook endpoint, or answered by an operator. */
export const DATA_SYSTEM_KINDS = ['webhook', 'manual'] as const;
export type DataSystemKind = (typeof DATA_SYSTEM_KINDS)[number];

/** Every kind's executor: a new kind is a compile error here until it has one. */
export const DATA_TASK_EXECUTORS: Readonly<Record<DataSystemKind, DataTaskExecutor>> = {
  webhook: webhookExecutor,
  manual: manualExecutor,
};

/** The kind of a stored system: `webhook` when it has an endpoint, else `manual`. */
export function kindOf(system: Pick<DataSystemRow, 'endpoint_id'>): DataSystemKind {
  return system.endpoint_id === null ? 'manual' : 'webhook';
}

/** The executor of a stored system's tasks. */
export function executorOf(system: Pick<DataSystemRow, 'endpoint_id'>): DataTaskExecutor {
  return DATA_TASK_EXECUTORS[kindOf(system)];
}
