import type { DataSystemKind } from '../../db/tables/data-system.table.js';
import type { DataSystemRow } from '../../modules/data-systems/data-system.repository.js';
import { connectorExecutor } from './connector.executor.js';
import type { DataTaskExecutor } from './data-task-executor.js';
import { manualExecutor } from './manual.executor.js';
import { httpCallbackExecutor } from './http-callback.executor.js';

/**
 * Every kind's executor (PRODUCT §2.9, §2.14): told through a webhook endpoint, answered by an
 * operator, or a database the service runs itself. A new kind is a compile error here until it
 * has one.
 */
export const DATA_TASK_EXECUTORS: Readonly<Record<DataSystemKind, DataTaskExecutor>> = {
  webhook: httpCallbackExecutor,
  manual: manualExecutor,
  postgres: connectorExecutor,
  mysql: connectorExecutor,
};

/** The kind of a stored system. */
export function kindOf(system: Pick<DataSystemRow, 'kind'>): DataSystemKind {
  return system.kind;
}

/** The executor of a stored system's tasks. */
export function executorOf(system: Pick<DataSystemRow, 'kind'>): DataTaskExecutor {
  return DATA_TASK_EXECUTORS[kindOf(system)];
}
